"""An exported identifier reader on the trainer's validation lines, as train_ids scores them.

    /usr/bin/python3 -m vigil_train.validate_ids --model ../models/identifier-reader.onnx

`synth` is best.pt's figure (600 fixed lines of the third generator); `unseen_fonts` the same
kinds of line drawn in idsynth.UNSEEN_FONTS, faces no run trains on: how a reader does on
lettering it never saw, the figure to compare a run with the shipped model on.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch

from .idsynth import UNSEEN_FONTS
from .model import ExportWrapper, PlateReader
from .train_ids import CLASSES, accuracy, validation_set
from .warm_start import load_onnx_weights


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, required=True, help="an exported identifier reader (.onnx)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    sets = {"synth": validation_set(), "unseen_fonts": validation_set(seed=54321, n=300, fonts=UNSEEN_FONTS)}
    model = PlateReader(classes=CLASSES)
    with torch.no_grad():
        load_onnx_weights(model, args.model, sets["synth"][0][:48], ExportWrapper)
    model.eval()
    report = {name: round(accuracy(model, x, t, True), 3) for name, (x, t) in sets.items()}
    print(json.dumps({"model": str(args.model), "ignoring spaces": True, **report}))


if __name__ == "__main__":
    main()
