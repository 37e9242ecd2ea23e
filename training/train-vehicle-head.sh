#!/usr/bin/env bash
# npm run train:vehicle-head [-- --minutes N --steps N ...]: teacher boxes (once), training of the
# vehicle head on the frozen plate detector (resumes from training/runs/vehicles/last.pt), export
# (stopped unless the plate maps equal the plate detector's), and the held-out figures.
# The head sits on models/plate-detector.onnx (`--init` to name another plate detector); the
# exported model lands in training/runs/vehicles/plate-detector.onnx.
set -euo pipefail
source "$(dirname "$0")/python-env.sh"
RUN=runs/vehicles
mkdir -p "$RUN"
[ -f labels/vehicles.teacher.json ] || $PY -m vigil_train.teacher_vehicles
# The plate detector the head is trained on, copied: models/ may hold the exported model next.
[ -f "$RUN/plate-only.onnx" ] || cp ../models/plate-detector.onnx "$RUN/plate-only.onnx"
$PY -m vigil_train.train_vehicles --run "$RUN" --init "$RUN/plate-only.onnx" "$@" 2>&1 | tee -a "$RUN/train.log"
$PY -m vigil_train.export --kind detector-vehicles --checkpoint "$RUN/best.pt" --out "$RUN/plate-detector.onnx" --same-plates-as "$RUN/plate-only.onnx"
cd .. && npx tsx bench/plates-vehicles.ts --model "training/$RUN/plate-detector.onnx" --base-model "training/$RUN/plate-only.onnx"
