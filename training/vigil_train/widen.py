"""A trained reader made wider without changing what it computes (Net2WiderNet, Chen et al. 2016).

Each layer's extra channels copy channels it already has; the layer after a copied channel splits
that channel's incoming weight between the original and its copies (shares that sum to one, drawn
at random so that the copies do not stay twins under training). Batch norms are copied with their
channels. The residual around the 1-D context keeps one mapping on both sides of the sum.

So a wider reader (train_ids.py or train_reader.py `--init FILE --width 1.5`) starts from the shipped
reader's readings rather than from scratch: from scratch, CTC emits nothing for its first few
hundred steps and a run of a session's length ends short of the shipped model.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from .model import PlateReader
from .warm_start import load_onnx_weights, onnx_reader_width


def _mapping(old: int, new: int, gen: torch.Generator) -> torch.Tensor:
    """New channel k copies old channel mapping[k]: the first `old` are themselves."""
    extra = torch.randint(0, old, (new - old,), generator=gen)
    return torch.cat([torch.arange(old), extra])


def _shares(mapping: torch.Tensor, old: int, gen: torch.Generator) -> torch.Tensor:
    """Per new channel, its share of the old channel's outgoing weight: shares of one old channel sum to one."""
    raw = torch.rand(len(mapping), generator=gen) + 0.5
    totals = torch.zeros(old).index_add_(0, mapping, raw)
    return raw / totals[mapping]


def _copy_norm(new: nn.Module, old: nn.Module, mapping: torch.Tensor) -> None:
    """A batch norm's channels (its affine weights and running statistics) as `old`'s channels `mapping`."""
    for name in ("weight", "bias", "running_mean", "running_var"):
        getattr(new, name).copy_(getattr(old, name)[mapping])


@torch.no_grad()
def widen(old: PlateReader, new: PlateReader, seed: int = 0) -> PlateReader:
    """Fills `new` (a wider PlateReader of the same classes) so that it computes what `old` does."""
    gen = torch.Generator().manual_seed(seed)
    convs = lambda m: [(s[0], s[1]) for s in m.features if isinstance(s, nn.Sequential)]  # noqa: E731
    pairs = list(zip(convs(old), convs(new)))
    in_map, in_share = torch.arange(3), torch.ones(3)  # the image's channels are not widened
    for (oc, on), (nc, nn_) in pairs:
        out_map = _mapping(oc.out_channels, nc.out_channels, gen)
        # Incoming weights: the old kernel of each copied output, each input channel's share of it.
        weight = oc.weight[out_map][:, in_map] * in_share.view(1, -1, 1, 1)
        nc.weight.copy_(weight)
        _copy_norm(nn_, on, out_map)
        in_map, in_share = out_map, _shares(out_map, oc.out_channels, gen)
    # The context is a residual: its last output follows the features' mapping (in_map).
    feature_map, feature_share = in_map, in_share
    (c1, n1, _, c2, n2, _) = old.context
    (d1, m1, _, d2, m2, _) = new.context
    hidden = _mapping(c1.out_channels, d1.out_channels, gen)
    d1.weight.copy_(c1.weight[hidden][:, feature_map] * feature_share.view(1, -1, 1))
    _copy_norm(m1, n1, hidden)
    hidden_share = _shares(hidden, c1.out_channels, gen)
    d2.weight.copy_(c2.weight[feature_map][:, hidden] * hidden_share.view(1, -1, 1))
    _copy_norm(m2, n2, feature_map)
    new.classifier.weight.copy_(old.classifier.weight[:, feature_map] * feature_share.view(1, -1, 1))
    new.classifier.bias.copy_(old.classifier.bias)
    return new


def start_from_export(model: PlateReader, path: Path, calibration: torch.Tensor, wrapper: type[nn.Module], seed: int) -> None:
    """`model` computing what the exported reader at `path` computes: its weights, or, where
    `model` is wider (`--width`), the same function in more channels."""
    exported = onnx_reader_width(path)
    width = model.width
    if exported > width:
        raise SystemExit(f"{path} is {exported:g} wide: --width {width:g} cannot start from it")
    if exported == width:
        load_onnx_weights(model, path, calibration, wrapper)
        return
    narrow = PlateReader(exported, classes=model.classifier.out_channels)
    load_onnx_weights(narrow, path, calibration, wrapper)
    widen(narrow.eval(), model, seed)
    print(f"widened {path} from {exported:g} to {width:g}", flush=True)
