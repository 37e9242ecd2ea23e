#!/usr/bin/env bash
# npm run train:plate-detector [-- --minutes N --steps N --init ../models/plate-detector.onnx ...]:
# teacher boxes (once), training (resumes from training/runs/detector/last.pt), export, and the
# held-out figures. Needs Debian's python3-torch python3-torchvision python3-onnx python3-opencv
# and plate fonts (training/README.md); the exported model lands in
# training/runs/detector/plate-detector.onnx.
set -euo pipefail
source "$(dirname "$0")/python-env.sh"
RUN=runs/detector
mkdir -p "$RUN"
[ -f labels/scenes.teacher.json ] || $PY -m vigil_train.teacher_boxes
$PY -m vigil_train.train_detector --run "$RUN" "$@" 2>&1 | tee -a "$RUN/train.log"
$PY -m vigil_train.export --kind detector --checkpoint "$RUN/best.pt" --out "$RUN/plate-detector.onnx"
cd .. && npx tsx bench/plate-detector.ts --model "training/$RUN/plate-detector.onnx"
