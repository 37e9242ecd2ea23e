#!/usr/bin/env bash
# npm run train:identifier-reader [-- --minutes N --steps N ...]: training from the shipped plate
# reader (resumes from training/runs/ids/last.pt), export, and the second generator's figures
# beside PP-OCR's recogniser. Needs Debian's python3-torch python3-torchvision python3-onnx
# python3-opencv and fonts (training/README.md).
set -euo pipefail
source "$(dirname "$0")/python-env.sh"
RUN=runs/ids
mkdir -p "$RUN"
$PY -m vigil_train.train_ids --run "$RUN" --init-plate ../models/plate-reader.onnx "$@" 2>&1 | tee -a "$RUN/train.log"
$PY -m vigil_train.export --kind identifiers --checkpoint "$RUN/best.pt" --out "$RUN/identifier-reader.onnx"
cd .. && npx tsx bench/ocr.ts --no-tesseract --identifier-model "training/$RUN/identifier-reader.onnx"
