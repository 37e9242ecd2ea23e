"""Give an exported plate detector a free input size: its height and width, and its maps', become
named dimensions instead of 384 x 640 (the weights are untouched).

    /usr/bin/python3 -m vigil_train.dynamic_size ../models/plate-detector.onnx

The network is fully convolutional (its upsampling is by scale, not to a size), so any input whose
sides are multiples of 32 runs; onnxruntime refuses a size the graph does not declare. The server
uses it for the close-up check, which looks at the photo shrunk to a quarter of the input: on a
canvas a quarter the size, a sixteenth of the work. Exports since this change declare the free
size themselves (export.py); this mends a file exported before it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import onnx

from .detector import IN_H, IN_W

#: Named dimensions of each tensor (after the batch and channel axes).
SPATIAL = {"image": ("height", "width"), "maps": ("rows", "cols"), "vehicles": ("vehicle_rows", "vehicle_cols")}


def free_spatial_dims(graph: onnx.ModelProto) -> None:
    for value in [*graph.graph.input, *graph.graph.output]:
        names = SPATIAL.get(value.name)
        if names is None:
            continue
        dims = value.type.tensor_type.shape.dim
        for dim, name in zip(dims[2:], names):
            dim.ClearField("dim_value")
            dim.dim_param = name


def outputs_at(path: Path, x: np.ndarray) -> list[np.ndarray]:
    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(x)
    names = [o.name for o in onnx.load(str(path)).graph.output]
    return list(net.forward(names))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("model", type=Path)
    args = ap.parse_args()
    before = onnx.load(str(args.model))
    x = np.random.default_rng(0).random((1, 3, IN_H, IN_W), dtype=np.float32)
    reference = outputs_at(args.model, x)
    free_spatial_dims(before)
    onnx.checker.check_model(before)
    onnx.save(before, str(args.model))
    after = outputs_at(args.model, x)
    small = outputs_at(args.model, x[:, :, :IN_H // 4, :IN_W // 4].copy())
    report = {"model": str(args.model), "max_abs_diff_at_full_size": max(float(np.abs(a - b).max()) for a, b in zip(after, reference)),
              "quarter_size_outputs": [list(o.shape) for o in small]}
    if report["max_abs_diff_at_full_size"] > 1e-6:
        raise SystemExit(f"outputs changed: {report}")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
