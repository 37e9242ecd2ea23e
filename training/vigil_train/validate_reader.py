"""An exported reader on the trainer's validation set, part by part, as train_reader scores it.

    /usr/bin/python3 -m vigil_train.validate_reader --model ../models/plate-reader.onnx

Gives the figure a new run's `best.pt` is compared with before anyone looks at the held half:
the shipped model's score on the same Brazilian, US 'val' and synthetic plates. Beside them, not
in the score, `unseen_fonts`: 400 synthetic plates in idsynth.UNSEEN_FONTS, faces no run trains on,
which say how a reader does on lettering it never saw.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import torch

from .charset import greedy_decode
from .data import load_crops
from .idsynth import UNSEEN_FONTS
from .train_reader import VALIDATION_WEIGHTS, as_batch, synthetic_plates, validation_set


def unseen_font_plates(count: int = 400, seed: int = 54321) -> tuple[torch.Tensor, list[str]]:
    """Synthetic plates in faces no run trains on."""
    images, texts = synthetic_plates(count, seed, UNSEEN_FONTS)
    return as_batch(images), texts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, required=True, help="an exported reader (.onnx)")
    args = ap.parse_args()
    # OpenCV's DNN module runs the graph: onnxruntime is no Debian package.
    net = cv2.dnn.readNetFromONNX(str(args.model))

    def share_read(x: torch.Tensor, texts: list[str]) -> float:
        right = 0
        for i, text in enumerate(texts):  # one at a time: OpenCV reshapes the 1-D context wrongly for a batch
            net.setInput(x[i:i + 1].numpy())
            right += greedy_decode(np.argmax(net.forward()[0], -1)) == text
        return round(right / len(texts), 3)

    report = {name: share_read(x, texts) for name, (x, texts) in validation_set(load_crops(us_validation=True)).items()}
    score = sum(report[n] * VALIDATION_WEIGHTS[n] for n in report) / sum(VALIDATION_WEIGHTS[n] for n in report)
    print(json.dumps({"model": str(args.model), **report, "score": round(score, 3),
                      "unseen_fonts": share_read(*unseen_font_plates())}))


if __name__ == "__main__":
    main()
