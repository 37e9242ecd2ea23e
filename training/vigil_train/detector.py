"""The plate detector: a small anchor-free (CenterNet-style) network.

A 384x640 RGB photo in (letterboxed), three maps out at stride 4 (96x160): the plate-centre
heatmap, the plate's size (log of width and height in input pixels) and the centre's sub-cell
offset. Plates at 640 px are often 15-40 px wide, so the head works at stride 4; the encoder goes
down to stride 32 for context (a plate sits on a car) and comes back up with skips, as a tiny
U-Net. Depthwise-separable blocks keep it small (0.2 M parameters).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

IN_H, IN_W = 384, 640
STRIDE = 4


def conv_bn(cin: int, cout: int, k: int = 3, s: int = 1, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, k // 2, groups=groups, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class SepBlock(nn.Module):
    """Depthwise 3x3 then pointwise; a residual when the shape stays."""

    def __init__(self, cin: int, cout: int, stride: int = 1):
        super().__init__()
        self.body = nn.Sequential(conv_bn(cin, cin, 3, stride, groups=cin), conv_bn(cin, cout, 1))
        self.residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.body(x)
        return x + y if self.residual else y


class Up(nn.Module):
    """Nearest 2x upsampling of the coarser map, added to the finer skip (1x1 to match)."""

    def __init__(self, coarse: int, fine: int, out: int):
        super().__init__()
        self.reduce = conv_bn(coarse, out, 1)
        self.skip = conv_bn(fine, out, 1)
        self.mix = SepBlock(out, out)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")

    def forward(self, coarse: torch.Tensor, fine: torch.Tensor) -> torch.Tensor:
        return self.mix(self.up(self.reduce(coarse)) + self.skip(fine))


# The layers down to stride 32: what the vehicle head (VehicleHead) reads its features from.
ENCODER = ("stem", "s8", "s16", "s32")


class PlateDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(conv_bn(3, 16, 3, 2), SepBlock(16, 24, 2))  # stride 4
        self.s8 = nn.Sequential(SepBlock(24, 48, 2), SepBlock(48, 48))
        self.s16 = nn.Sequential(SepBlock(48, 96, 2), SepBlock(96, 96), SepBlock(96, 96))
        self.s32 = nn.Sequential(SepBlock(96, 160, 2), SepBlock(160, 160), SepBlock(160, 160))
        self.up16 = Up(160, 96, 96)
        self.up8 = Up(96, 48, 64)
        self.up4 = Up(64, 24, 48)
        # One shared separable layer feeds the three 1x1 outputs: full 3x3 heads at stride 4 would
        # cost more than the rest of the network.
        self.head = SepBlock(48, 48)
        self.heatmap = nn.Conv2d(48, 1, 1)
        self.size = nn.Conv2d(48, 2, 1)
        self.offset = nn.Conv2d(48, 2, 1)
        # Centres are rare: start the heatmap at a prior of 1% so early losses are not swamped.
        nn.init.constant_(self.heatmap.bias, -4.6)
        self.encoder_frozen = False

    def freeze_encoder(self) -> None:
        """No gradients for the encoder (ENCODER), its batch norms kept in evaluation mode: the
        vehicle head reads its stride-16 and stride-32 features, which then stay as they were."""
        self.encoder_frozen = True
        for name in ENCODER:
            for p in getattr(self, name).parameters():
                p.requires_grad_(False)
        self.train(self.training)

    def train(self, mode: bool = True) -> "PlateDetector":
        super().train(mode)
        if self.encoder_frozen:
            for name in ENCODER:
                getattr(self, name).eval()
        return self

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """x: N x 3 x 384 x 640 RGB in [0, 1]. Heatmap logits N x 1 x 96 x 160, log sizes and
        offsets N x 2 x 96 x 160."""
        heat, size, offset, _, _ = self.with_features(x)
        return heat, size, offset

    def with_features(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """The three plate maps, then the stride-16 and stride-32 features (the vehicle head's input)."""
        x = (x - 0.45) / 0.25
        f4 = self.stem(x)
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        p = self.head(self.up4(self.up8(self.up16(f32, f16), f8), f4))
        return self.heatmap(p), self.size(p), self.offset(p), f16, f32


class DetectorExport(nn.Module):
    """What ships: the heatmap as probabilities, with a 3x3 max-pool beside it so the server
    keeps a cell only where it equals its pooled value (CenterNet's peak picking, no NMS)."""

    def __init__(self, model: PlateDetector):
        super().__init__()
        self.model = model
        self.pool = nn.MaxPool2d(3, 1, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        heat, size, offset = self.model(x)
        heat = heat.sigmoid()
        return torch.cat([heat, self.pool(heat), size, offset], dim=1)  # N x 6 x 96 x 160


# Vehicles, by the COCO classes the plate reader reports (src/vision/vehicles/vehicle-types.ts).
VEHICLE_CLASSES = ("car", "truck", "bus", "motorcycle")
VEHICLE_STRIDE = 16


class VehicleHead(nn.Module):
    """Vehicle centres, sizes and offsets at stride 16 (24 x 40 cells), from the plate detector's
    stride-16 and stride-32 features. A vehicle is tens to hundreds of pixels wide at 640 px, so a
    coarse grid holds it; a dilated block widens the view so a car that fills the photo is seen
    whole. Trained on a frozen plate detector: the plate maps stay exactly what they were."""

    def __init__(self, width: int = 96, wide: bool = False):
        super().__init__()
        self.up = Up(160, 96, width)
        # `wide`: the whole photo's mean features (a car that fills the frame looks like no part of
        # one) and two wider dilated blocks, so each cell sees about the whole 640 x 384 canvas.
        # Both start at zero, so a head widened from a narrow one first gives what it gave. Modules
        # in the order they run, as warm_start.py reads a graph's convolutions.
        self.wide = wide
        if wide:
            self.scene = zero_init(nn.Conv2d(160, width, 1))
        self.context = nn.Sequential(
            conv_bn(width, width, 3, groups=width), conv_bn(width, width, 1),
            nn.Conv2d(width, width, 3, 1, 2, dilation=2, groups=width, bias=False), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
            conv_bn(width, width, 1))
        if wide:
            self.far = nn.Sequential(DilatedResidual(width, 4), DilatedResidual(width, 8))
        self.heatmap = nn.Conv2d(width, len(VEHICLE_CLASSES), 1)
        self.size = nn.Conv2d(width, 2, 1)
        self.offset = nn.Conv2d(width, 2, 1)
        nn.init.constant_(self.heatmap.bias, -4.6)

    def forward(self, f16: torch.Tensor, f32: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        p = self.up(f32, f16)
        if self.wide:
            p = self.far(self.context(p + self.scene(F.adaptive_avg_pool2d(f32, 1))))
        else:
            p = self.context(p)
        return self.heatmap(p), self.size(p), self.offset(p)


def zero_init(conv: nn.Conv2d) -> nn.Conv2d:
    nn.init.zeros_(conv.weight)
    if conv.bias is not None:
        nn.init.zeros_(conv.bias)
    return conv


class DilatedResidual(nn.Module):
    """A depthwise 3x3 at `dilation`, then pointwise, added to its input; the pointwise starts at
    zero (the block starts as the identity)."""

    def __init__(self, ch: int, dilation: int):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(ch, ch, 3, 1, dilation, dilation=dilation, groups=ch, bias=False), nn.BatchNorm2d(ch),
                                  nn.ReLU(inplace=True), zero_init(nn.Conv2d(ch, ch, 1)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.body(x)


# The wide head's modules that a narrow head lacks.
WIDE_ONLY = ("scene", "far")


def has_wide_head(weights: dict) -> bool:
    """Whether a PlateVehicleDetector's state dict holds the wide vehicle head (VehicleHead `wide`)."""
    return any(k.split(".")[:2] in (["vehicle", m] for m in WIDE_ONLY) for k in weights)


class PlateVehicleDetector(nn.Module):
    """The plate detector with a vehicle head on its features: one pass finds both. Module order
    (plate, then vehicle) is the graph's order, as warm_start.py needs."""

    def __init__(self, wide_head: bool = False):
        super().__init__()
        self.plate = PlateDetector()
        self.vehicle = VehicleHead(wide=wide_head)
        self.plate_frozen = False

    def freeze_plate(self) -> None:
        """No gradients for the plate detector, and its batch norms kept in evaluation mode."""
        self.plate_frozen = True
        for p in self.plate.parameters():
            p.requires_grad_(False)
        self.plate.eval()

    def train(self, mode: bool = True) -> "PlateVehicleDetector":
        super().train(mode)
        if self.plate_frozen:
            self.plate.eval()
        return self

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        heat, size, offset, f16, f32 = self.plate.with_features(x)
        return (heat, size, offset, *self.vehicle(f16, f32))


class PlateVehicleExport(nn.Module):
    """Two outputs: `maps` exactly as DetectorExport gives them, and `vehicles` at stride 16:
    per-class heat (VEHICLE_CLASSES), its 3x3 max, log w, log h (input px), offset x, y (cells)."""

    def __init__(self, model: PlateVehicleDetector):
        super().__init__()
        self.model = model
        self.pool = nn.MaxPool2d(3, 1, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        heat, size, offset, v_heat, v_size, v_offset = self.model(x)
        heat, v_heat = heat.sigmoid(), v_heat.sigmoid()
        return (torch.cat([heat, self.pool(heat), size, offset], dim=1),
                torch.cat([v_heat, self.pool(v_heat), v_size, v_offset], dim=1))
