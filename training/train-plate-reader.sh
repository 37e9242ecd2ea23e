#!/usr/bin/env bash
# npm run train:plate-reader [-- --minutes N --steps N ...]: pseudo-labels (once), training
# (resumes from training/runs/reader/last.pt), export, and the held-out figures.
# Needs Debian's python3-torch python3-torchvision python3-onnx python3-opencv and plate fonts
# (training/README.md); the exported model lands in training/runs/reader/plate-reader.onnx, its
# 8-bit graph (what the server runs) beside it as plate-reader.int8.onnx.
set -euo pipefail
source "$(dirname "$0")/python-env.sh"
RUN=runs/reader
mkdir -p "$RUN"
[ -f labels/crops-eu.teacher.json ] || $PY -m vigil_train.teacher
[ -f labels/lines.teacher.json ] || $PY -m vigil_train.teacher_lines
$PY -m vigil_train.train_reader --run "$RUN" "$@" 2>&1 | tee -a "$RUN/train.log"
$PY -m vigil_train.export --checkpoint "$RUN/best.pt" --out "$RUN/plate-reader.onnx"
$PY -m vigil_train.quantize --model "$RUN/plate-reader.onnx" --out "$RUN/plate-reader.int8.onnx"
cd .. && npx tsx bench/plate-reader.ts --model "training/$RUN/plate-reader.int8.onnx"
