"""An exported identifier or stack reader on its trainer's validation sets, as the trainer scores them.

    /usr/bin/python3 -m vigil_train.validate_ids --model ../models/identifier-reader.onnx
    /usr/bin/python3 -m vigil_train.validate_ids --kind stacks --model ../models/stack-reader.onnx

`synth` is best.pt's figure (600 fixed lines or columns of the third generator); `unseen_fonts`
the same kinds drawn in idsynth.UNSEEN_FONTS, faces no run trains on: how a reader does on
lettering it never saw, the figure to compare a run with the shipped model on.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch

from . import train_ids, train_stacks
from .model import ExportWrapper, PlateReader
from .warm_start import load_onnx_weights, onnx_reader_width

# Per kind (export.py's names): the validation sets, and whether spaces count.
KINDS = {"identifiers": (train_ids.validation_set, True), "stacks": (train_stacks.validation_set, False)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, required=True, help="an exported reader (.onnx)")
    ap.add_argument("--kind", choices=sorted(KINDS), default="identifiers")
    args = ap.parse_args()
    torch.set_num_threads(1)
    make_set, no_spaces = KINDS[args.kind]
    sets = {"synth": make_set(), **train_ids.unseen_faces(make_set)}
    model = PlateReader(width=onnx_reader_width(args.model), classes=train_ids.CLASSES)
    with torch.no_grad():
        load_onnx_weights(model, args.model, sets["synth"][0][:48], ExportWrapper)
    model.eval()
    report = {name: round(train_ids.accuracy(model, x, t, no_spaces), 3) for name, (x, t) in sets.items()}
    print(json.dumps({"model": str(args.model), "kind": args.kind, "ignoring spaces": no_spaces, **report}))


if __name__ == "__main__":
    main()
