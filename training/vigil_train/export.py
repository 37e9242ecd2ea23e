"""Export a checkpoint to ONNX (opset 13, dynamic batch) and check it against torch.

    /usr/bin/python3 -m vigil_train.export --checkpoint runs/reader/best.pt --out ../models/plate-reader.onnx
    /usr/bin/python3 -m vigil_train.export --kind detector --checkpoint runs/detector/best.pt --out ../models/plate-detector.onnx
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
from .detector import IN_H, IN_W, DetectorExport, PlateDetector
from .model import HEIGHT, WIDTH, ExportWrapper, PlateReader


def export(checkpoint: Path, out: Path, kind: str = "reader") -> None:
    if kind == "reader":
        model, wrap, shape, names = PlateReader(), ExportWrapper, (3, HEIGHT, WIDTH), ("image", "probs")
        meta = {"charset": CHARS, "blank": "0", "input": f"1x3x{HEIGHT}x{WIDTH} RGB in [0,1], stretched", "classes": str(CLASSES)}
    else:
        model, wrap, shape, names = PlateDetector(), DetectorExport, (3, IN_H, IN_W), ("image", "maps")
        meta = {"input": f"1x3x{IN_H}x{IN_W} RGB in [0,1], letterboxed top-left, grey 114",
                "output": "heat, 3x3 max of heat, log w, log h (input px), offset x, y (cells) at stride 4"}
    model.load_state_dict(torch.load(checkpoint)["model"])
    model.eval()
    wrapped = wrap(model).eval()
    example = torch.rand(1, *shape)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(wrapped, example, str(out), opset_version=13, input_names=[names[0]], output_names=[names[1]],
                      dynamic_axes={names[0]: {0: "batch"}, names[1]: {0: "batch"}}, do_constant_folding=True)
    graph = onnx.load(str(out))
    onnx.checker.check_model(graph)
    # What the server needs to read the output, stored in the model itself.
    for k, v in meta.items():
        entry = graph.metadata_props.add()
        entry.key, entry.value = k, v
    onnx.save(graph, str(out))
    # onnxruntime is no Debian package; OpenCV's DNN module runs the graph independently of torch.
    with torch.no_grad():
        x = torch.rand(1, *shape)
        ref = wrapped(x).numpy()
    net = cv2.dnn.readNetFromONNX(str(out))
    net.setInput(x.numpy())
    diff = float(np.abs(net.forward() - ref).max())
    if diff > 1e-4:
        raise SystemExit(f"ONNX output differs from torch by {diff}")
    print(json.dumps({"out": str(out), "bytes": out.stat().st_size, "max_abs_diff_vs_torch": diff}))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", default="runs/reader/best.pt")
    ap.add_argument("--out", default="../models/plate-reader.onnx")
    ap.add_argument("--kind", choices=["reader", "detector"], default="reader")
    args = ap.parse_args()
    export(Path(args.checkpoint), Path(args.out), args.kind)


if __name__ == "__main__":
    main()
