"""An exported reader on the trainer's validation set, part by part, as train_reader scores it.

    /usr/bin/python3 -m vigil_train.validate_reader --model ../models/plate-reader.onnx

Gives the figure a new run's `best.pt` is compared with before anyone looks at the held half:
the shipped model's score on the same Brazilian, US 'val' and synthetic plates.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from .charset import greedy_decode
from .data import load_crops
from .train_reader import VALIDATION_WEIGHTS, validation_set


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, required=True, help="an exported reader (.onnx)")
    args = ap.parse_args()
    # OpenCV's DNN module runs the graph: onnxruntime is no Debian package.
    net = cv2.dnn.readNetFromONNX(str(args.model))
    report: dict[str, float] = {}
    for name, (x, texts) in validation_set(load_crops(us_validation=True)).items():
        right = 0
        for i, text in enumerate(texts):  # one at a time: OpenCV reshapes the 1-D context wrongly for a batch
            net.setInput(x[i:i + 1].numpy())
            right += greedy_decode(np.argmax(net.forward()[0], -1)) == text
        report[name] = round(right / len(texts), 3)
    score = sum(report[n] * VALIDATION_WEIGHTS[n] for n in report) / sum(VALIDATION_WEIGHTS[n] for n in report)
    print(json.dumps({"model": str(args.model), **report, "score": round(score, 3)}))


if __name__ == "__main__":
    main()
