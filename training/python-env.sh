# Sourced by the train-*.sh scripts: Debian's Python with the trainer's packages, from training/.
cd "$(dirname "${BASH_SOURCE[0]}")"
PY=/usr/bin/python3
if ! $PY -c 'import torch, torchvision, onnx, cv2' 2>/dev/null; then
  echo "missing Debian packages: apt-get install python3-torch python3-torchvision python3-onnx python3-opencv" >&2
  exit 1
fi
