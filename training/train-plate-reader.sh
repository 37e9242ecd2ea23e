#!/usr/bin/env bash
# npm run train:plate-reader [-- --minutes N --steps N ...]: pseudo-labels (once), training
# (resumes from training/runs/reader/last.pt), export, and the held-out figures.
# Needs Debian's python3-torch python3-torchvision python3-onnx python3-opencv and plate fonts
# (training/README.md); the exported model lands in training/runs/reader/plate-reader.onnx.
set -euo pipefail
cd "$(dirname "$0")"
PY=/usr/bin/python3
if ! $PY -c 'import torch, torchvision, onnx, cv2' 2>/dev/null; then
  echo "missing Debian packages: apt-get install python3-torch python3-torchvision python3-onnx python3-opencv" >&2
  exit 1
fi
RUN=runs/reader
mkdir -p "$RUN"
[ -f labels/crops-eu.teacher.json ] || $PY -m vigil_train.teacher
[ -f labels/lines.teacher.json ] || $PY -m vigil_train.teacher_lines
$PY -m vigil_train.train_reader --run "$RUN" "$@" 2>&1 | tee -a "$RUN/train.log"
$PY -m vigil_train.export --checkpoint "$RUN/best.pt" --out "$RUN/plate-reader.onnx"
cd .. && npx tsx bench/plate-reader.ts --model "training/$RUN/plate-reader.onnx"
