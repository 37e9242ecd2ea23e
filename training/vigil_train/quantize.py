"""An exported model with its 2-D convolutions in 8 bits (QDQ format, static, calibrated).

    /usr/bin/python3 -m vigil_train.quantize --model ../models/plate-reader.onnx \
        --out ../models/plate-reader.int8.onnx

Each 2-D convolution's weights become int8 with a scale per output channel, its bias int32, and
its input and (after its ReLU) its output uint8 with a scale calibrated on `fit` crops (the held
half is never looked at). onnxruntime fuses each DequantizeLinear -> Conv -> (Relu) ->
QuantizeLinear into one QLinearConv, which runs on the CPU's 8-bit dot products: the reader's
convolutions are 170 of its 179 M multiply-adds. The rest of the graph (the 1-D context, the
classifier) stays in float. (The plate detector, depthwise convolutions that wait on memory
rather than on arithmetic, ran no faster in 8 bits: 2026-12-02, 9.8-10.5 ms against 8.9-11.4 ms
at 640 x 384.)

Calibration runs the float graph through OpenCV's DNN module (onnxruntime is no Debian package),
reading every tensor that gets quantized; its range is [0, the 99.99th percentile] after a ReLU
and [0.01th, 99.99th percentile] elsewhere, so one bright pixel does not coarsen every step.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import cv2
import numpy as np
import onnx
from onnx import helper, numpy_helper

from .data import crop_pixels, load_crops

PERCENTILE = 99.99
# Weights in 7 bits ([-63, 63]): on CPUs without VNNI (AVX2 alone) onnxruntime multiplies uint8
# activations by int8 weights with VPMADDUBSW, which adds each pair of products into a
# saturating int16; 255 x 127 x 2 overflows it and the graph reads other characters, while
# 255 x 63 x 2 = 32130 cannot.
WEIGHT_BITS = 7


def conv2d_nodes(graph: onnx.GraphProto) -> list[onnx.NodeProto]:
    weights = {i.name: i for i in graph.initializer}
    return [n for n in graph.node if n.op_type == "Conv" and n.input[1] in weights and len(weights[n.input[1]].dims) == 4]


def consumers(graph: onnx.GraphProto, tensor: str) -> list[onnx.NodeProto]:
    return [n for n in graph.node if tensor in n.input]


def producer(graph: onnx.GraphProto, tensor: str) -> onnx.NodeProto | None:
    return next((n for n in graph.node if tensor in n.output), None)


def reaches_conv(graph: onnx.GraphProto, tensor: str) -> bool:
    """Whether another convolution reads `tensor`, directly or through other operators."""
    seen, todo = set(), [tensor]
    while todo:
        t = todo.pop()
        for n in consumers(graph, t):
            if n.op_type == "Conv":
                return True
            if n.name not in seen:
                seen.add(n.name)
                todo.extend(n.output)
    return False


def quantized_tensors(graph: onnx.GraphProto, convs: list[onnx.NodeProto]) -> tuple[list[str], dict[str, str]]:
    """The activations to quantize: each 2-D convolution's input, and its output after the ReLU
    that alone reads it. A MaxPool between two of them shares its input's scale (`shared`):
    onnxruntime then runs it on the 8-bit values."""
    tensors: list[str] = []
    for conv in convs:
        tensors.append(conv.input[0])
        after = consumers(graph, conv.output[0])
        out = after[0].output[0] if len(after) == 1 and after[0].op_type == "Relu" else conv.output[0]
        # A head's output (a heatmap, a box size) keeps its float precision; onnxruntime then runs
        # that last convolution in float on dequantized weights.
        if reaches_conv(graph, out):
            tensors.append(out)
    shared: dict[str, str] = {}
    for t in dict.fromkeys(tensors):
        p = producer(graph, t)
        if p is not None and p.op_type == "MaxPool" and p.input[0] in tensors:
            shared[t] = p.input[0]
    return list(dict.fromkeys(tensors)), shared


def calibrate(model: Path, graph: onnx.GraphProto, tensors: list[str], batches: list[np.ndarray], percentile: float) -> dict[str, tuple[float, float]]:
    """Range of each tensor over the calibration inputs, read through OpenCV's DNN module from
    `model`, whose graph is `graph` (not yet rewritten)."""
    layer_of = {}
    for t in tensors:
        p = producer(graph, t)
        layer_of[t] = "onnx_node!" + p.name if p is not None else None
    net = cv2.dnn.readNetFromONNX(str(model))
    values: dict[str, list[np.ndarray]] = {t: [] for t in tensors}
    names = [layer_of[t] for t in tensors if layer_of[t]]
    for x in batches:
        net.setInput(x)
        outs = net.forward(names)
        for t, out in zip([t for t in tensors if layer_of[t]], outs):
            flat = out.ravel()
            values[t].append(flat[:: max(1, flat.size // 20000)])
        for t in tensors:
            if layer_of[t] is None:
                values[t].append(x.ravel()[:: max(1, x.size // 20000)])
    ranges = {}
    for t, vs in values.items():
        v = np.concatenate(vs)
        lo, hi = float(np.percentile(v, 100 - percentile)), float(np.percentile(v, percentile))
        ranges[t] = (min(0.0, lo), max(hi, lo + 1e-6))
    return ranges


def uint8_params(lo: float, hi: float) -> tuple[float, int]:
    scale = (hi - lo) / 255.0
    return scale, int(np.clip(round(-lo / scale), 0, 255))


def quantize(model: Path, out: Path, batches: list[np.ndarray], percentile: float = PERCENTILE, weight_bits: int = WEIGHT_BITS) -> None:
    m = onnx.load(str(model))
    g = m.graph
    convs = conv2d_nodes(g)
    tensors, shared = quantized_tensors(g, convs)
    ranges = calibrate(model, g, [t for t in tensors if t not in shared], batches, percentile)
    params = {t: uint8_params(*ranges[t]) for t in tensors if t not in shared}
    for t, source in shared.items():
        params[t] = params[source]
    inits = {i.name: i for i in g.initializer}
    new_inits: list[onnx.TensorProto] = []
    new_nodes: list[onnx.NodeProto] = []

    def scalar(name: str, value, dtype) -> str:
        new_inits.append(numpy_helper.from_array(np.array(value, dtype=dtype), name))
        return name

    # Activations: Q -> DQ right where each tensor is made; its readers take the DQ's output.
    for t in tensors:
        scale, zp = params[t]
        s = scalar(f"{t}_scale", scale, np.float32)
        z = scalar(f"{t}_zero", zp, np.uint8)
        q, dq = f"{t}_q", f"{t}_dq"
        for n in g.node:
            for k, name in enumerate(n.input):
                if name == t:
                    n.input[k] = dq
        new_nodes.extend([
            helper.make_node("QuantizeLinear", [t, s, z], [q], name=f"{t}_Q"),
            helper.make_node("DequantizeLinear", [q, s, z], [dq], name=f"{t}_DQ"),
        ])
    # Weights per output channel (symmetric int8), biases int32 at input scale x weight scale.
    for conv in convs:
        w = numpy_helper.to_array(inits[conv.input[1]]).astype(np.float64)
        top = 2 ** (weight_bits - 1) - 1
        w_scale = np.maximum(np.abs(w).reshape(w.shape[0], -1).max(1), 1e-8) / top
        wq = np.clip(np.round(w / w_scale[:, None, None, None]), -top, top).astype(np.int8)
        wname = conv.input[1]
        new_inits += [numpy_helper.from_array(wq, f"{wname}_q"), numpy_helper.from_array(w_scale.astype(np.float32), f"{wname}_scale"),
                      numpy_helper.from_array(np.zeros(w.shape[0], np.int8), f"{wname}_zero")]
        new_nodes.append(helper.make_node("DequantizeLinear", [f"{wname}_q", f"{wname}_scale", f"{wname}_zero"], [f"{wname}_dq"], axis=0, name=f"{wname}_DQ"))
        conv.input[1] = f"{wname}_dq"
        if len(conv.input) > 2:
            bname = conv.input[2]
            b = numpy_helper.to_array(inits[bname]).astype(np.float64)
            x_scale = params[conv.input[0].removesuffix("_dq")][0]
            b_scale = (x_scale * w_scale).astype(np.float32)
            bq = np.round(b / b_scale).astype(np.int32)
            new_inits += [numpy_helper.from_array(bq, f"{bname}_q"), numpy_helper.from_array(b_scale, f"{bname}_scale"),
                          numpy_helper.from_array(np.zeros(w.shape[0], np.int32), f"{bname}_zero")]
            new_nodes.append(helper.make_node("DequantizeLinear", [f"{bname}_q", f"{bname}_scale", f"{bname}_zero"], [f"{bname}_dq"], axis=0, name=f"{bname}_DQ"))
            conv.input[2] = f"{bname}_dq"
    used = {name for n in g.node for name in n.input}
    kept = [i for i in g.initializer if i.name in used]
    nodes = topological(list(g.node) + new_nodes, {i.name for i in g.input} | {i.name for i in kept} | {i.name for i in new_inits})
    del g.node[:]
    g.node.extend(nodes)
    del g.initializer[:]
    g.initializer.extend(kept + new_inits)
    onnx.checker.check_model(m)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(m, str(out))


def topological(nodes: list[onnx.NodeProto], available: set[str]) -> list[onnx.NodeProto]:
    """The nodes in an order where each comes after what it reads (ONNX requires it)."""
    done: list[onnx.NodeProto] = []
    have = set(available) | {""}
    pending = list(nodes)
    while pending:
        ready = [n for n in pending if all(i in have for i in n.input)]
        if not ready:
            raise ValueError("graph has a cycle or a missing input: " + pending[0].name)
        for n in ready:
            done.append(n)
            have.update(n.output)
        pending = [n for n in pending if n not in ready]
    return done


def as_input(pixels: np.ndarray) -> np.ndarray:
    """An H x W x 3 uint8 picture as a batch of one, N x 3 x H x W in [0, 1]."""
    return (pixels.astype(np.float32) / 255.0).transpose(2, 0, 1)[None]


def reader_batches(count: int, seed: int = 7) -> list[np.ndarray]:
    """`fit` crops of every source, as the reader sees them, some jittered like a detector's box."""
    crops = [c for c in load_crops() if c.side == "fit"]
    rng = random.Random(seed)
    rng.shuffle(crops)
    out = []
    for i, c in enumerate(crops[:count]):
        px = crop_pixels(c, rng if i % 2 else None)
        out.append(as_input(px))
    return out


def synthetic_batches(kind: str, count: int, seed: int = 777) -> list[np.ndarray]:
    """Lines (`identifiers`) or turned columns (`stacks`) of the trainers' own generator, in the
    faces they train on, from a seed neither validation set uses: those readers saw nothing real."""
    from .stacksynth import StackSynth
    from .idsynth import IdentifierSynth

    synth = (IdentifierSynth if kind == "identifiers" else StackSynth)(seed)
    return [as_input(synth.sample()[0]) for _ in range(count)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--kind", choices=("reader", "identifiers", "stacks"), default="reader",
                    help="what calibrates it: `fit` plate crops (reader), or the identifier or stack trainer's lines")
    ap.add_argument("--samples", type=int, default=400)
    ap.add_argument("--percentile", type=float, default=PERCENTILE)
    ap.add_argument("--weight-bits", type=int, default=WEIGHT_BITS, choices=(7, 8))
    args = ap.parse_args()
    batches = reader_batches(args.samples) if args.kind == "reader" else synthetic_batches(args.kind, args.samples)
    quantize(args.model, args.out, batches, args.percentile, args.weight_bits)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
