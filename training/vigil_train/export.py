"""Export a checkpoint to ONNX (opset 13, dynamic batch) and check it against torch.

    /usr/bin/python3 -m vigil_train.export --checkpoint runs/reader/best.pt --out ../models/plate-reader.onnx
    /usr/bin/python3 -m vigil_train.export --kind detector --checkpoint runs/detector/best.pt --out ../models/plate-detector.onnx
    /usr/bin/python3 -m vigil_train.export --kind detector-vehicles --checkpoint runs/vehicles/best.pt --out ../models/plate-detector.onnx
    /usr/bin/python3 -m vigil_train.export --kind identifiers --checkpoint runs/ids/best.pt --out ../models/identifier-reader.onnx
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import onnx
import torch

from .charset import CHARS, CLASSES
from .detector import IN_H, IN_W, VEHICLE_CLASSES, DetectorExport, PlateDetector, PlateVehicleDetector, PlateVehicleExport, has_wide_head
from .dynamic_size import SPATIAL
from .model import HEIGHT, WIDTH, ExportWrapper, PlateReader, width_of


DETECTOR_META = {"input": f"1x3x{IN_H}x{IN_W} RGB in [0,1], letterboxed top-left, grey 114",
                 "output": "heat, 3x3 max of heat, log w, log h (input px), offset x, y (cells) at stride 4"}


def same_plate_maps(out: Path, plate_only: Path) -> float:
    """Largest difference between the plate maps of `out` and of the plate-only model the vehicle
    head was trained on (frozen): the head must not change a single plate."""
    x = np.random.default_rng(0).random((1, 3, IN_H, IN_W), dtype=np.float32)
    a, b = cv2.dnn.readNetFromONNX(str(out)), cv2.dnn.readNetFromONNX(str(plate_only))
    a.setInput(x)
    b.setInput(x)
    # By name: OpenCV's forward() gives a graph's last output, the vehicle maps where it has both.
    return float(np.abs(a.forward("maps") - b.forward(onnx.load(str(plate_only)).graph.output[0].name)).max())


def load_weights(checkpoint: Path) -> dict[str, torch.Tensor]:
    """A run's model weights: its checkpoint (.pt), or the same weights as plain arrays (.npz, as
    train-on-device.sh writes them: a newer torch's checkpoint need not load in Debian's)."""
    if checkpoint.suffix == ".npz":
        with np.load(checkpoint) as arrays:
            return {k: torch.from_numpy(arrays[k].copy()) for k in arrays.files}
    return torch.load(checkpoint, map_location="cpu")["model"]


def inline_shared_weights(graph: onnx.GraphProto) -> None:
    """torch's exporter keeps one copy of equal weights (the zeros a new block starts from) and
    feeds the others through Identity nodes, which OpenCV's DNN module and warm_start.py do not
    follow: each such weight gets its own copy again."""
    initializers = {t.name: t for t in graph.initializer}
    for node in [n for n in graph.node if n.op_type == "Identity" and n.input[0] in initializers]:
        copy = onnx.TensorProto()
        copy.CopyFrom(initializers[node.input[0]])
        copy.name = node.output[0]
        graph.initializer.append(copy)
        graph.node.remove(node)


def export(checkpoint: Path, out: Path, kind: str = "reader", plate_only: Path | None = None) -> None:
    weights = load_weights(checkpoint)
    if kind in ("reader", "identifiers", "stacks"):  # readers of any `width` (train_ids.py --width)
        width = width_of(weights["features.0.0.weight"].shape[0])
    if kind == "reader":
        model, wrap, shape, names = PlateReader(width), ExportWrapper, (3, HEIGHT, WIDTH), ("image", "probs")
        meta = {"charset": CHARS, "blank": "0", "input": f"1x3x{HEIGHT}x{WIDTH} RGB in [0,1], stretched", "classes": str(CLASSES)}
    elif kind == "identifiers":
        from . import idsynth, train_ids  # the identifier reader: its own classes and input width
        model, wrap, shape, names = PlateReader(width, classes=train_ids.CLASSES), ExportWrapper, (3, idsynth.HEIGHT, idsynth.WIDTH), ("image", "probs")
        meta = {"charset": train_ids.CHARS, "blank": "0", "classes": str(train_ids.CLASSES),
                "input": f"1x3x{idsynth.HEIGHT}x{idsynth.WIDTH} RGB in [0,1], height 48 at its aspect, left-aligned, padded grey {idsynth.PAD}"}
    elif kind == "stacks":
        from . import idsynth, stacksynth, train_ids  # the stack reader: the identifier classes on a turned column
        model, wrap, shape, names = PlateReader(width, classes=train_ids.CLASSES), ExportWrapper, (3, stacksynth.HEIGHT, stacksynth.WIDTH), ("image", "probs")
        meta = {"charset": train_ids.CHARS, "blank": "0", "classes": str(train_ids.CLASSES),
                "input": f"1x3x{stacksynth.HEIGHT}x{stacksynth.WIDTH} RGB in [0,1], an upright column turned a quarter counter-clockwise, height 48 at its aspect, left-aligned, padded grey {idsynth.PAD}"}
    elif kind == "detector":
        model, wrap, shape, names = PlateDetector(), DetectorExport, (3, IN_H, IN_W), ("image", "maps")
        meta = DETECTOR_META
    else:
        model, wrap, shape, names = PlateVehicleDetector(wide_head=has_wide_head(weights)), PlateVehicleExport, (3, IN_H, IN_W), ("image", "maps", "vehicles")
        meta = {**DETECTOR_META, "vehicles": f"per class ({','.join(VEHICLE_CLASSES)}) heat, then its 3x3 max, log w, log h (input px), offset x, y (cells) at stride 16"}
    model.load_state_dict(weights)
    model.eval()
    wrapped = wrap(model).eval()
    example = torch.rand(1, *shape)
    out.parent.mkdir(parents=True, exist_ok=True)
    outputs = list(names[1:])
    # A detector's input size is free too (dynamic_size.py): the close-up check runs it smaller.
    spatial = kind.startswith("detector")
    axes = {n: {0: "batch", **({2: SPATIAL[n][0], 3: SPATIAL[n][1]} if spatial else {})} for n in names}
    torch.onnx.export(wrapped, example, str(out), opset_version=13, input_names=[names[0]], output_names=outputs,
                      dynamic_axes=axes, do_constant_folding=True)
    graph = onnx.load(str(out))
    inline_shared_weights(graph.graph)
    onnx.checker.check_model(graph)
    # What the server needs to read the output, stored in the model itself.
    for k, v in meta.items():
        entry = graph.metadata_props.add()
        entry.key, entry.value = k, v
    onnx.save(graph, str(out))
    # onnxruntime is no Debian package; OpenCV's DNN module runs the graph independently of torch.
    with torch.no_grad():
        x = torch.rand(1, *shape)
        ref = wrapped(x)
    refs = [t.numpy() for t in (ref if isinstance(ref, tuple) else (ref,))]
    net = cv2.dnn.readNetFromONNX(str(out))
    net.setInput(x.numpy())
    got = net.forward(outputs) if len(outputs) > 1 else [net.forward()]
    diff = max(float(np.abs(g - r).max()) for g, r in zip(got, refs))
    if diff > 1e-4:
        raise SystemExit(f"ONNX output differs from torch by {diff}")
    report = {"out": str(out), "bytes": out.stat().st_size, "max_abs_diff_vs_torch": diff}
    if plate_only is not None:
        report["max_abs_diff_of_plate_maps"] = same_plate_maps(out, plate_only)
        if report["max_abs_diff_of_plate_maps"] > 1e-5:
            raise SystemExit(f"the plate maps differ from {plate_only}: {report}")
    print(json.dumps(report))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", default="runs/reader/best.pt")
    ap.add_argument("--out", default="../models/plate-reader.onnx")
    ap.add_argument("--kind", choices=["reader", "identifiers", "stacks", "detector", "detector-vehicles"], default="reader")
    ap.add_argument("--same-plates-as", type=Path, help="detector-vehicles: stop unless the plate maps equal this plate-only model's")
    args = ap.parse_args()
    export(Path(args.checkpoint), Path(args.out), args.kind, args.same_plates_as)


if __name__ == "__main__":
    main()
