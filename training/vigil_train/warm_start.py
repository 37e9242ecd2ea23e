"""Start a run from a shipped ONNX model rather than from scratch.

Checkpoints live in a git-ignored folder and rarely outlive a working session; the exported
model in `models/` does. Loading it back lets each session continue the last one's training.

The export folds every BatchNorm into the convolution before it, so the ONNX graph holds, per
convolution, one weight and one bias. They are loaded into the torch model in graph order (the
order the forward pass ran them, which is the order the modules are defined in). Each folded
BatchNorm is rebuilt so that it computes exactly `x + bias` in evaluation mode: running mean and
variance measured on real training batches, gamma = sqrt(var + eps), beta = mean + bias. With
batch statistics close to those running ones, training mode starts from the same function too.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch import nn

from .detector import PlateVehicleDetector, PlateVehicleExport
from .model import width_of

CONVS = (nn.Conv1d, nn.Conv2d)
NORMS = (nn.BatchNorm1d, nn.BatchNorm2d)


def _onnx_convs(graph: onnx.GraphProto, all_outputs: bool = False) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """The convolutions that compute the graph's first output (every output with `all_outputs`),
    in graph order: a plate detector with a vehicle head (second output) gives the plate
    detector's own, or with `all_outputs` the head's after them. An 8-bit graph's weights come
    back dequantized: training can go on from the only file a model may ship as."""
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    producer = {o: n for n in graph.node for o in n.output}
    needed, todo = set(), [o.name for o in graph.output] if all_outputs else [graph.output[0].name]
    while todo:
        node = producer.get(todo.pop())
        if node is not None and id(node) not in needed:
            needed.add(id(node))
            todo.extend(node.input)

    def constant(name: str) -> np.ndarray:
        """An initializer, or one dequantized (an 8-bit graph's weights and biases, quantize.py)."""
        if name in inits:
            return inits[name]
        dq = producer[name]
        q, scale, zero = (inits[i] for i in dq.input)
        axis = next((a.i for a in dq.attribute if a.name == "axis"), 1)
        shape = [1] * q.ndim
        shape[axis if scale.ndim else 0] = -1
        return ((q.astype(np.float64) - zero.reshape(shape)) * scale.reshape(shape)).astype(np.float32)

    out = []
    for node in graph.node:
        if node.op_type == "Conv" and id(node) in needed:
            out.append((constant(node.input[1]), constant(node.input[2]) if len(node.input) > 2 else None))
    return out


def onnx_reader_width(path: Path) -> float:
    """The `width` an exported reader (model.PlateReader) was built with."""
    return width_of(_onnx_convs(onnx.load(str(path)).graph)[0][0].shape[0])


def _conv_norm_pairs(model: nn.Module) -> list[tuple[nn.Module, nn.Module | None]]:
    """Each convolution with the BatchNorm that follows it in module order (None if none does)."""
    modules = [m for m in model.modules() if isinstance(m, CONVS + NORMS)]
    pairs = []
    for i, m in enumerate(modules):
        if isinstance(m, CONVS):
            following = modules[i + 1] if i + 1 < len(modules) and isinstance(modules[i + 1], NORMS) else None
            pairs.append((m, following))
    return pairs


@torch.no_grad()
def load_onnx_weights(model: nn.Module, path: Path, calibration: torch.Tensor, wrapper: type[nn.Module], all_outputs: bool = False) -> None:
    """Loads the folded weights of `path` into `model`; `calibration` is a batch of real inputs,
    `wrapper` what export.py wraps the model in (its output is compared with the graph's; every
    output's with `all_outputs`, which loads the convolutions of every output)."""
    graph = onnx.load(str(path)).graph
    convs = _onnx_convs(graph, all_outputs)
    pairs = _conv_norm_pairs(model)
    if len(convs) != len(pairs):
        raise SystemExit(f"{path}: {len(convs)} convolutions in the graph, {len(pairs)} in the model")
    biases: dict[nn.Module, torch.Tensor] = {}
    for (weight, bias), (conv, norm) in zip(convs, pairs):
        if tuple(conv.weight.shape) != weight.shape:
            raise SystemExit(f"{path}: weight {weight.shape} does not fit {tuple(conv.weight.shape)}")
        conv.weight.copy_(torch.from_numpy(weight.copy()))
        b = torch.from_numpy(bias) if bias is not None else torch.zeros(weight.shape[0])
        if norm is None:
            conv.bias.copy_(b)
            continue
        # Identity plus the folded bias while the statistics are measured.
        norm.running_mean.zero_()
        norm.running_var.fill_(1 - norm.eps)
        norm.weight.fill_(1)
        norm.bias.copy_(b)
        biases[norm] = b
    inputs: dict[nn.Module, list[torch.Tensor]] = {n: [] for n in biases}
    hooks = [n.register_forward_hook(lambda m, x, y: inputs[m].append(x[0])) for n in biases]
    was_training = model.training
    model.eval()
    try:
        model(calibration)
    finally:
        for h in hooks:
            h.remove()
        model.train(was_training)
    for norm, b in biases.items():
        x = inputs[norm][0]
        dims = [0] + list(range(2, x.dim()))
        mean, var = x.mean(dims), x.var(dims, unbiased=False)
        norm.running_mean.copy_(mean)
        norm.running_var.copy_(var)
        norm.weight.copy_((var + norm.eps).sqrt())
        norm.bias.copy_(mean + b)
    if any(n.op_type == "DequantizeLinear" for n in graph.node):
        # OpenCV 4.6 runs no QDQ graph: an 8-bit file is taken at its dequantized weights unchecked.
        print(f"warm start from {path}, dequantized ({len(pairs)} convolutions, {len(biases)} batch norms rebuilt)", flush=True)
        return
    diff = _difference_from_graph(wrapper(model).eval(), path, [o.name for o in graph.output], calibration[:1], all_outputs)
    model.train(was_training)
    if diff > 1e-3:
        raise SystemExit(f"warm start from {path}: output differs from the graph by {diff}")
    print(f"warm start from {path} ({len(pairs)} convolutions, {len(biases)} batch norms rebuilt, "
          f"largest difference from the graph {diff:.1e})", flush=True)


def _difference_from_graph(wrapped: nn.Module, path: Path, names: list[str], x: torch.Tensor, all_outputs: bool = False) -> float:
    import cv2  # OpenCV's DNN module runs the graph; onnxruntime is no Debian package

    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(x.numpy())
    if not all_outputs:
        # By name: OpenCV's forward() without one gives the graph's last output, which for a
        # plate detector with a vehicle head is the head's.
        return float(np.abs(net.forward(names[0]) - wrapped(x).numpy()).max())
    return max(float(np.abs(g - t.numpy()).max()) for g, t in zip(net.forward(names), wrapped(x)))


def load_vehicle_detector(graph: Path, calibration: torch.Tensor) -> PlateVehicleDetector:
    """An exported two-output plate detector (plate maps and vehicle head), with the narrow or
    the wide head that the graph holds (told apart by their number of convolutions)."""
    convs = len(_onnx_convs(onnx.load(str(graph)).graph, all_outputs=True))
    for wide in (False, True):
        model = PlateVehicleDetector(wide_head=wide)
        if len(_conv_norm_pairs(model)) == convs:
            load_onnx_weights(model, graph, calibration, PlateVehicleExport, all_outputs=True)
            return model
    raise SystemExit(f"{graph}: {convs} convolutions, neither a narrow nor a wide vehicle head")
