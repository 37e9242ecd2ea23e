#!/usr/bin/env bash
# npm run train:stack-reader [-- --minutes N --steps N ...]: training from the shipped plate
# reader (resumes from training/runs/stacks/last.pt), export, and the second generator's stacked
# trailer IDs beside PP-OCR alone. Needs Debian's python3-torch python3-torchvision python3-onnx
# python3-opencv and fonts (training/README.md).
set -euo pipefail
source "$(dirname "$0")/python-env.sh"
RUN=runs/stacks
mkdir -p "$RUN"
$PY -m vigil_train.train_stacks --run "$RUN" --init-plate ../models/plate-reader.onnx "$@" 2>&1 | tee -a "$RUN/train.log"
$PY -m vigil_train.export --kind stacks --checkpoint "$RUN/best.pt" --out "$RUN/stack-reader.onnx"
cd ..
# The second generator's stacked trailer IDs on draws nobody tuned on, and the gate photos'
# vertical codes, read with the new model and with PP-OCR alone.
for reader in "--stack-model training/$RUN/stack-reader.onnx" "--stack-reader ppocr"; do
  npx tsx bench/ocr.ts --no-tesseract --only containers-gate $reader
  for draw in 4 5 6; do npx tsx bench/ocr.ts --no-tesseract --only trailers-v-second --second-draw "$draw" $reader; done
done
