"""Train the plate detector's vehicle head; resumable, time-boxed, fixed seeds (see runs.py).

    /usr/bin/python3 -m vigil_train.train_vehicles --init ../models/plate-detector.onnx --run runs/vehicles --minutes 85

The plate detector is loaded from its exported model and frozen (evaluation mode, no gradients):
only the head learns, so the plate maps of the exported model are exactly the shipped ones.
Distilled from the COCO vehicle detector (teacher_vehicles.py). Validation: the teacher's sure
vehicles found (IoU >= 0.5, any class) and boxes that match no teacher box, on held frames.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import torch
from torch.utils.data import DataLoader

from .centernet import box_loss, focal_loss, validation_score
from .detector import VEHICLE_STRIDE, WIDE_ONLY, DetectorExport, PlateVehicleDetector, VehicleHead
from .detector_data import iou
from .model import parameter_count
from .runs import Run, device_of, loader_options, run_arguments, schedule
from .vehicle_data import VehicleFrame, VehicleStream, load_vehicle_frames, placed
from .warm_start import load_onnx_weights, load_vehicle_detector

# Boxes of different classes on one vehicle (car and truck): the surer one stands, as the
# server keeps it (SAME_VEHICLE_IOU in plate-detector-model.ts).
SAME_VEHICLE_IOU = 0.6


def decode_vehicles(heat: np.ndarray, wh: np.ndarray, off: np.ndarray, threshold: float) -> list[tuple[float, ...]]:
    """As the server decodes them (src/vision/plates/detector-vehicles.ts): a cell's score is the
    sum of its class heats (the head spreads a vehicle the teacher named car or truck over both),
    peaks of that sum (3x3 maxima) above `threshold` -> (x0, y0, x1, y1, score, strongest class)
    in input pixels, surest first, boxes that overlap much merged into the surer."""
    import cv2
    score = heat.sum(axis=0)
    pooled = cv2.dilate(score, np.ones((3, 3), np.float32))
    found = []
    ys, xs = np.where((score >= pooled) & (score >= threshold))
    for y, x in zip(ys, xs):
        cx, cy = (x + off[0, y, x]) * VEHICLE_STRIDE, (y + off[1, y, x]) * VEHICLE_STRIDE
        w, h = np.exp(wh[0, y, x]), np.exp(wh[1, y, x])
        found.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, min(1.0, float(score[y, x])), int(heat[:, y, x].argmax())))
    kept: list[tuple[float, ...]] = []
    for b in sorted(found, key=lambda b: -b[4]):
        if all(iou(b[:4], k[:4]) <= SAME_VEHICLE_IOU for k in kept):
            kept.append(b)
    return kept


@torch.no_grad()
def evaluate(model: PlateVehicleDetector, frames: list[VehicleFrame], threshold: float = 0.3) -> dict[str, float]:
    found = total = wrong = same_class = 0
    device = next(model.parameters()).device
    for f in frames:
        img, sure, _, _ = placed(f, None)
        out = [t.cpu() for t in model(torch.from_numpy(img).permute(2, 0, 1).float()[None].to(device) / 255.0)]
        boxes = decode_vehicles(out[3].sigmoid()[0].numpy(), out[4][0].numpy(), out[5][0].numpy(), threshold)
        total += len(sure)
        for g in sure:
            match = [b for b in boxes if iou(g[:4], b[:4]) >= 0.5]
            found += bool(match)
            same_class += bool(match) and match[0][5] == g[4]
        wrong += sum(all(iou(g[:4], b[:4]) < 0.3 for g in sure) for b in boxes)
    return {"recall": found / max(1, total), "class_agrees": same_class / max(1, found), "wrong_per_frame": wrong / max(1, len(frames))}


def load_head(head: VehicleHead, weights: dict[str, torch.Tensor]) -> None:
    """A head's weights into `head`; a narrow head's into a wide one leaves its new blocks at zero."""
    missing, unexpected = head.load_state_dict(weights, strict=False)
    if unexpected or (missing and not (head.wide and all(k.split(".")[0] in WIDE_ONLY for k in missing))):
        raise SystemExit(f"the head does not fit: missing {missing}, unexpected {unexpected}")


def load_head_graph(model: PlateVehicleDetector, graph: Path, calibration: torch.Tensor) -> None:
    """The plate detector and head of an exported two-output model, narrow or wide, into `model`."""
    found = load_vehicle_detector(graph, calibration)
    model.plate.load_state_dict(found.plate.state_dict())
    load_head(model.vehicle, found.vehicle.state_dict())


def main() -> None:
    ap = run_arguments(__doc__, run="runs/vehicles", minutes=85, steps=2200, batch=12, lr=3e-3, warmup=100, seed=13)
    ap.add_argument("--init", type=Path, default=Path("../models/plate-detector.onnx"), help="the plate detector the head sits on (exported)")
    ap.add_argument("--init-head", type=Path, help="a fresh run starts its head from this checkpoint (a run's last.pt) or exported two-output model (../models/plate-detector.onnx)")
    ap.add_argument("--wide-head", action="store_true",
                    help="the wide head (detector.VehicleHead `wide`): the photo's mean features and wider dilated blocks; from a narrow --init-head, its new blocks start at zero")
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    random.seed(args.seed)
    torch.set_num_threads(args.threads)
    frames = load_vehicle_frames()
    fit = [f for f in frames if f.side == "fit"]
    val = [f for f in frames if f.side == "held"]
    print("training frames:", len(fit), "validation frames:", len(val),
          "sure vehicles:", json.dumps({"fit": sum(len(f.sure) for f in fit), "held": sum(len(f.sure) for f in val)}), flush=True)

    model = PlateVehicleDetector(wide_head=args.wide_head)
    stream = DataLoader(VehicleStream(fit, args.seed * 100003), batch_size=args.batch, **loader_options(args.workers))
    if args.init_head and args.init_head.suffix == ".onnx":
        # An exported model with both outputs: the plate detector and its head, as shipped.
        load_head_graph(model, args.init_head, next(iter(stream))[0])
    else:
        load_onnx_weights(model.plate, args.init, next(iter(stream))[0], DetectorExport)
    model.freeze_plate()
    if args.init_head and args.init_head.suffix != ".onnx":
        head = {k[len("vehicle."):]: v for k, v in torch.load(args.init_head, map_location="cpu")["model"].items() if k.startswith("vehicle.")}
        load_head(model.vehicle, head)
        print(f"head from {args.init_head}", flush=True)
    opt = torch.optim.AdamW(model.vehicle.parameters(), lr=args.lr, weight_decay=1e-4)
    run = Run(Path(args.run), model, opt)
    if run.step:
        # Resumed: fresh data, not the first run's samples again.
        stream = DataLoader(VehicleStream(fit, args.seed * 100003 + run.step), batch_size=args.batch, **loader_options(args.workers))
    print(f"parameters: head {parameter_count(model.vehicle)}, frozen plate detector {parameter_count(model.plate)}", flush=True)
    device = device_of(args.device)
    run.to(device)
    print(f"training on {device}, {args.workers} data workers", flush=True)

    def loss_of(batch) -> torch.Tensor:
        images, heat, wh, off, mask, weight = (t.to(device, non_blocking=True) for t in batch)
        with torch.no_grad():
            _, _, _, f16, f32 = model.plate.with_features(images)
        p_heat, p_wh, p_off = model.vehicle(f16, f32)
        return focal_loss(p_heat, heat, weight[:, None]) + box_loss(p_wh, p_off, wh, off, mask)

    def validate() -> tuple[float, dict]:
        return validation_score(evaluate(model, val))

    run.train(stream, loss_of, validate, clip=10.0, **schedule(args))


if __name__ == "__main__":
    main()
