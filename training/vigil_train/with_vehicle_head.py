"""A two-output detector from a plate detector trained with its encoder frozen (train_detector
--freeze-encoder) and the vehicle head of the model it started from: the head reads only the
encoder's features, which the run left as they were, so it needs no training again.

    /usr/bin/python3 -m vigil_train.with_vehicle_head --plates runs/detector-us/last.pt \\
        --head ../models/plate-detector.onnx --out runs/detector-us/with-head.pt

then `python3 -m vigil_train.export --kind detector-vehicles --checkpoint runs/detector-us/with-head.pt
--out FILE --same-plates-as PLATE_ONLY.onnx` (the run exported with `--kind detector`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch

from .detector import ENCODER, PlateDetector, PlateVehicleDetector
from .export import load_weights
from .warm_start import load_vehicle_detector


def combined(plates: dict[str, torch.Tensor], head_model: Path, calibration: torch.Tensor) -> PlateVehicleDetector:
    """The two-output model of `head_model` with the plate decoder and head of `plates`; stops
    where `plates` changed the encoder the vehicle head reads."""
    model = load_vehicle_detector(head_model, calibration)
    model.eval()
    own = model.plate.state_dict()
    with torch.no_grad():
        # The features the head reads, as the head's model computes them and as the run does: the
        # batch norms differ in form (each load rebuilds them from its own calibration batch), so
        # compare what they compute rather than their entries.
        run = PlateDetector()
        run.load_state_dict(plates)
        run.eval()
        x = calibration[:2]
        diff = max(float((a - b).abs().max()) for a, b in zip(model.plate.with_features(x)[3:], run.with_features(x)[3:]))
        if diff > 1e-3:
            raise SystemExit(f"the run changed the encoder (the head's features differ by {diff}): its head would not fit")
    decoder = {k: v for k, v in plates.items() if k.split(".")[0] not in ENCODER}
    own.update(decoder)
    model.plate.load_state_dict(own)
    return model


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plates", type=Path, required=True, help="the run's checkpoint (last.pt or best.pt)")
    ap.add_argument("--head", type=Path, default=Path("../models/plate-detector.onnx"), help="the two-output model whose vehicle head is kept")
    ap.add_argument("--out", type=Path, required=True, help="a checkpoint export.py reads (--kind detector-vehicles)")
    args = ap.parse_args()
    torch.manual_seed(0)
    calibration = torch.rand(4, 3, 384, 640)
    model = combined(load_weights(args.plates), args.head, calibration)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model.state_dict()}, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
