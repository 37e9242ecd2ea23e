#!/usr/bin/env bash
# The plate reader's training on a lent GPU machine (training/README.md, Training on a lent GPU).
# Run there through the device tool, from the repository root, with training/packs/reader carried:
#   bash training/train-on-device.sh --minutes 8 --steps 6000 --batch 256 [--init ../models/plate-reader.onnx ...]
# It trains from the pack (pack.py: no datasets or Debian fonts there) and leaves the run's
# checkpoints and log in $OUT/run, which come back here to be exported with Debian's torch:
#   /usr/bin/python3 -m vigil_train.export --checkpoint FILES_AT/run/best.npz --out runs/reader-gpu/plate-reader.onnx
set -euo pipefail
# PY: the Python with torch (there, plain python3; to try the script here on the CPU:
# PY=/usr/bin/python3 OUT=/tmp/out bash training/train-on-device.sh --device cpu --minutes 1).
cd "$(dirname "$0")"
[ -f packs/reader/pack.json ] || { echo "no training/packs/reader: make it here with python3 -m vigil_train.pack and carry it" >&2; exit 1; }
: "${OUT:?OUT: the device tool sets it to its output folder}"
export VIGIL_PACK=packs/reader VIGIL_FONTS=packs/reader/fonts PYTHONUNBUFFERED=1
# One data worker per core but two: synthesis is the CPU's work, the network the GPU's.
WORKERS=$(( $(nproc) > 3 ? $(nproc) - 2 : 1 ))
"${PY:-python3}" -m vigil_train.train_reader --run "$OUT/run" --device cuda --workers "$WORKERS" "$@" 2>&1 | tee "$OUT/train.log"
# The weights again as plain arrays, which export.py reads whatever torch wrote the checkpoints.
"${PY:-python3}" -c '
import sys, numpy as np, torch
for name in ("best", "last"):
    state = torch.load(f"{sys.argv[1]}/{name}.pt", map_location="cpu")["model"]
    np.savez(f"{sys.argv[1]}/{name}.npz", **{k: v.numpy() for k, v in state.items()})
' "$OUT/run"
