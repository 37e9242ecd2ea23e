#!/usr/bin/env bash
# A reader's training on a lent GPU machine (training/README.md, Training on a lent GPU).
# Run there through the device tool, from the repository root, with training/packs/reader carried:
#   bash training/train-on-device.sh reader NAME --minutes 8 --steps 6000 --batch 256 [--init ../models/plate-reader.onnx ...]
#   bash training/train-on-device.sh ids NAME --minutes 8 --steps 6000 --batch 256 --init-plate ../models/plate-reader.onnx
# TRAINER is `reader` (train_reader.py), `ids` (train_ids.py) or `stacks` (train_stacks.py, which
# draws with the identifier generator's fonts too); any of its options follow. Two
# runs can share one machine side by side, each with its own --workers.
# It trains from the pack (pack.py: no datasets or Debian fonts there) and leaves the run's log
# and weights, as plain arrays, in $OUT/NAME (the tool returns 8 files at most), to be exported
# here with Debian's torch:
#   /usr/bin/python3 -m vigil_train.export [--kind identifiers] --checkpoint FILES_AT/NAME/best.npz --out runs/NAME/model.onnx
set -euo pipefail
# PY: the Python with torch (there, plain python3; to try the script here on the CPU:
# PY=/usr/bin/python3 OUT=/tmp/out bash training/train-on-device.sh reader try --device cpu --minutes 1).
cd "$(dirname "$0")"
trainer=${1:?TRAINER: reader, ids or stacks}; name=${2:?NAME: the run and its folder under \$OUT}; shift 2
case "$trainer" in
  reader) module=vigil_train.train_reader ;;
  ids) module=vigil_train.train_ids ;;
  stacks) module=vigil_train.train_stacks ;;
  *) echo "unknown trainer $trainer: reader, ids or stacks" >&2; exit 2 ;;
esac
[ -f packs/reader/pack.json ] || { echo "no training/packs/reader: make it here with python3 -m vigil_train.pack and carry it" >&2; exit 1; }
: "${OUT:?OUT: the device tool sets it to its output folder}"
export VIGIL_PACK=packs/reader VIGIL_FONTS=packs/reader/fonts PYTHONUNBUFFERED=1
# Checkpoints stay out of $OUT: only the log and the arrays come back.
run="${TMPDIR:-/tmp}/vigil-runs/$name"
mkdir -p "$OUT/$name" "$run"
# One data worker per core but two: synthesis is the CPU's work, the network the GPU's
# (a later --workers among the options wins).
WORKERS=$(( $(nproc) > 3 ? $(nproc) - 2 : 1 ))
"${PY:-python3}" -m "$module" --run "$run" --device cuda --workers "$WORKERS" "$@" 2>&1 | tee "$OUT/$name/train.log"
# The weights as plain arrays, which export.py reads whatever torch wrote the checkpoints.
"${PY:-python3}" -c '
import sys, numpy as np, torch
for name in ("best", "last"):
    state = torch.load(f"{sys.argv[1]}/{name}.pt", map_location="cpu")["model"]
    np.savez(f"{sys.argv[2]}/{name}.npz", **{k: v.numpy() for k, v in state.items()})
' "$run" "$OUT/$name"
