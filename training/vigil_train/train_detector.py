"""Train the plate detector; resumable, time-boxed, fixed seeds (see runs.py).

    /usr/bin/python3 -m vigil_train.train_detector --run runs/detector --minutes 100

Validation: plate recall (IoU >= 0.5) and wrong boxes per frame on Romanian videos held out
whole (never the dev scenes, whose `held` half gives the quoted figures).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader

from .centernet import box_loss, focal_loss, validation_score
from .detector import IN_H, IN_W, STRIDE, DetectorExport, PlateDetector
from .detector_data import DetectorStream, Frame, iou, load_frames, read_rgb, real_us_plates
from .model import parameter_count
from .runs import Run, device_of, loader_options, run_arguments, schedule
from .warm_start import load_onnx_weights


def letterbox(img: np.ndarray) -> tuple[np.ndarray, float]:
    """Longer side to 640, padded to 640 x 384 (grey), as the server feeds the detector."""
    h, w = img.shape[:2]
    k = min(IN_W / w, IN_H / h)
    small = cv2.resize(img, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA)
    out = np.full((IN_H, IN_W, 3), 114, np.uint8)
    out[:small.shape[0], :small.shape[1]] = small
    return out, k


def decode(heat: np.ndarray, wh: np.ndarray, off: np.ndarray, threshold: float) -> list[tuple[float, float, float, float, float]]:
    """Peaks of the heatmap (3x3 local maxima) above `threshold` -> boxes in input pixels."""
    pooled = cv2.dilate(heat, np.ones((3, 3), np.float32))
    ys, xs = np.where((heat >= pooled) & (heat >= threshold))
    out = []
    for y, x in zip(ys, xs):
        cx, cy = (x + off[0, y, x]) * STRIDE, (y + off[1, y, x]) * STRIDE
        w, h = np.exp(wh[0, y, x]), np.exp(wh[1, y, x])
        out.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, float(heat[y, x])))
    return out


@torch.no_grad()
def evaluate(model: nn.Module, frames: list[Frame], threshold: float = 0.3) -> dict[str, float]:
    found = total = wrong = 0
    device = next(model.parameters()).device
    for f in frames:
        img, k = letterbox(read_rgb(f.path))
        heat, wh, off = (t.cpu() for t in model(torch.from_numpy(img).permute(2, 0, 1).float()[None].to(device) / 255.0))
        boxes = [tuple(v / k for v in b[:4]) for b in decode(heat.sigmoid()[0, 0].numpy(), wh[0].numpy(), off[0].numpy(), threshold)]
        total += len(f.boxes)
        found += sum(any(iou(g, b) >= 0.5 for b in boxes) for g in f.boxes)
        wrong += sum(all(iou(g, b) < 0.3 for g in f.boxes) for b in boxes)
    return {"recall": found / max(1, total), "wrong_per_frame": wrong / max(1, len(frames))}


def main() -> None:
    ap = run_arguments(__doc__, run="runs/detector", minutes=100, steps=6000, batch=16, lr=2e-3, warmup=300, seed=11)
    ap.add_argument("--init", type=Path, help="a fresh run starts from this exported model (../models/plate-detector.onnx)")
    ap.add_argument("--real-us-share", type=float, default=0.0,
                    help="share of the pasted plates that are real fit crops of plates-crops-us instead of synthetic ones")
    ap.add_argument("--freeze-encoder", action="store_true",
                    help="train the decoder and head only: the vehicle head's features stay as --init gave them")
    ap.add_argument("--tilt-share", type=float, default=0.0,
                    help="share of the training frames turned by up to --max-tilt degrees either way (plates photographed crooked)")
    ap.add_argument("--max-tilt", type=float, default=20.0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    random.seed(args.seed)
    torch.set_num_threads(args.threads)
    frames = load_frames()
    fit = [f for f in frames if f.side == "fit"]
    val = [f for f in frames if f.side == "held" and f.source == "scenes-ro"]
    counts: dict[str, int] = {}
    for f in fit:
        counts[f.source] = counts.get(f.source, 0) + 1
    print("training frames:", json.dumps(counts), "validation frames:", len(val), flush=True)

    model = PlateDetector()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    run = Run(Path(args.run), model, opt)
    print(f"parameters: {parameter_count(model)}", flush=True)
    stream = DataLoader(DetectorStream(fit, args.seed * 100003 + run.step, real_us_plates() if args.real_us_share > 0 else None, args.real_us_share, args.tilt_share, args.max_tilt), batch_size=args.batch, **loader_options(args.workers))

    if args.init and run.step == 0:
        load_onnx_weights(model, args.init, next(iter(stream))[0], DetectorExport)
    if args.freeze_encoder:
        model.freeze_encoder()
    device = device_of(args.device)
    run.to(device)
    print(f"training on {device}, {args.workers} data workers", flush=True)

    def loss_of(batch) -> torch.Tensor:
        images, heat, wh, off, mask = (t.to(device, non_blocking=True) for t in batch)
        p_heat, p_wh, p_off = model(images)
        return focal_loss(p_heat, heat) + box_loss(p_wh, p_off, wh, off, mask)

    def validate() -> tuple[float, dict]:
        return validation_score(evaluate(model, val))

    run.train(stream, loss_of, validate, clip=10.0, **schedule(args))


if __name__ == "__main__":
    main()
