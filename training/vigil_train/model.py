"""The plate reader: a small CRNN read with CTC.

48x160 RGB in (a line or a whole plate, stretched), 40 frames of 35 classes out (blank + 34
characters). Convolutions only: no recurrent layer and no adaptive pooling, so the ONNX graph is
plain Conv/BatchNorm/ReLU/MaxPool that onnxruntime runs in about a millisecond on one core. The
1-D convolutions at the end give each frame the context of its neighbours (about two characters
either side), which is what a BiLSTM would add for a plate's short, unordered strings.

Why CTC rather than fixed slots: plate lengths run from 2 to 8+ characters and the same number
is drawn with and without gaps; CTC needs no length head and no alignment, and the pipeline's
decoder (src/vision/ocr/ctc-decode.ts) already reads its output with per-character alternatives
for the region grammars.
"""

from __future__ import annotations

import argparse

import torch
from torch import nn

from .charset import CLASSES

HEIGHT, WIDTH = 48, 160


def conv(cin: int, cout: int, kernel=(3, 3), padding=(1, 1)) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, kernel, padding=padding, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


# Channels of the five convolution stages at width 1 (0.64 M parameters with the identifier classes).
CHANNELS = (32, 64, 96, 128, 160)


def stage_channels(width: float) -> list[int]:
    """Every stage's channels scaled by `width`, a multiple of a quarter: each stage a multiple of
    8 (what the CPU kernels block by), and the first stage's alone gives `width` back (width_of)."""
    if width <= 0 or not float(width * 4).is_integer():
        raise ValueError(f"a reader's width is a positive multiple of 0.25, not {width}")
    return [int(n * width) for n in CHANNELS]


def width_argument(text: str) -> float:
    """argparse's type for a trainer's `--width`: a width stage_channels accepts."""
    try:
        width = float(text)
        stage_channels(width)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return width


def width_of(first_conv_channels: int) -> float:
    """The `width` a reader was built with, from its first convolution's output channels."""
    return first_conv_channels / CHANNELS[0]


class PlateReader(nn.Module):
    def __init__(self, width: float = 1.0, classes: int = CLASSES):
        """`width` scales every layer's channels (the trainers' `--width`); the shipped plate reader is 1."""
        super().__init__()
        c = stage_channels(width)
        self.features = nn.Sequential(
            conv(3, c[0]), nn.MaxPool2d(2, 2),  # 24 x 80
            conv(c[0], c[1]), nn.MaxPool2d(2, 2),  # 12 x 40
            conv(c[1], c[2]), conv(c[2], c[2]), nn.MaxPool2d((2, 1), (2, 1)),  # 6 x 40
            conv(c[2], c[3]), conv(c[3], c[3]), nn.MaxPool2d((2, 1), (2, 1)),  # 3 x 40
            conv(c[3], c[4], kernel=(3, 1), padding=(0, 0)),  # 1 x 40
        )
        self.context = nn.Sequential(
            nn.Conv1d(c[4], c[4], 3, padding=1, bias=False), nn.BatchNorm1d(c[4]), nn.ReLU(inplace=True),
            nn.Conv1d(c[4], c[4], 3, padding=2, dilation=2, bias=False), nn.BatchNorm1d(c[4]), nn.ReLU(inplace=True),
        )
        self.dropout = nn.Dropout(0.1)
        self.classifier = nn.Conv1d(c[4], classes, 1)

    @property
    def width(self) -> float:
        """The `width` this reader was built with, read from its channels."""
        return width_of(self.features[0][0].out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x: N x 3 x 48 x 160, RGB in [0, 1]. Returns log-probabilities N x 40 x CLASSES."""
        x = (x - 0.5) / 0.5
        # Height is 1 here; a mean (ReduceMean with an axes attribute) rather than a squeeze, whose
        # opset-13 form (axes as an input) OpenCV's ONNX importer, the export check, cannot read.
        f = self.features(x).mean(dim=2)  # N x C x 40
        f = f + self.context(f)
        logits = self.classifier(self.dropout(f))  # N x CLASSES x 40
        return logits.permute(0, 2, 1).log_softmax(-1)


class ExportWrapper(nn.Module):
    """What ships: probabilities (not logs), N x 40 x CLASSES, as ctc-decode.ts reads them."""

    def __init__(self, model: PlateReader):
        super().__init__()
        self.model = model

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.model(x).exp()


def parameter_count(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def ctc_loss_of(model: nn.Module, device: torch.device):
    """The training loss of a reader on (images, targets, lengths) batches: CTC over every frame."""
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)

    def loss_of(batch) -> torch.Tensor:
        images, targets, lengths = batch
        images, targets = images.to(device, non_blocking=True), targets.to(device, non_blocking=True)
        logp = model(images).permute(1, 0, 2)  # T x N x C
        frames = torch.full((images.shape[0],), logp.shape[0], dtype=torch.long)
        return ctc(logp, targets, frames, lengths)
    return loss_of
