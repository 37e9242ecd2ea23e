"""Training frames for the plate detector, and the targets it learns.

Frames: the Romanian dashcam frames (plates ahead boxed), the `fit` half of the dev scenes (one
plate boxed), the teacher's extra boxes for both (training/labels/scenes.teacher.json), frames
with no plate, and synthetic plates pasted onto any of them. Frames are scaled as the server
scales a photo (longer side 640, see model IN_W), then cut to CROP x CROP training windows: the
network is fully convolutional, and small windows hold more plates per pixel of compute.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
from torch.utils.data import IterableDataset

from .data import LABELS, datasets_dir, load_crops, read_rgb
from .detector import IN_W, STRIDE
from .runs import worker_seed
from .splits import content_side
from .synth import LAYOUTS, PlateSynth

CROP = 320
# The dev scenes' `fit` half are whole car photos as users send them, the Romanian frames
# dashcam views of the plates ahead: the car photos are drawn three times as often per frame.
SOURCE_WEIGHTS = {"scenes-ro": 1.0, "negatives": 1.0}
DEV_SCENE_WEIGHT = 3.0


@dataclass(frozen=True)
class Frame:
    path: Path
    boxes: tuple[tuple[float, float, float, float], ...]  # xyxy, photo pixels
    source: str  # scenes-ro, scenes-us, ..., negatives
    side: str  # 'fit' or 'held'


def iou(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def video_side(source: str, held_share: float = 0.15) -> str:
    """Romanian frames come from a few videos: hold out whole videos, never frames of one."""
    video = source.split("#")[0]
    return "held" if hashlib.sha1(video.encode()).digest()[0] < held_share * 256 else "fit"


def load_frames(root: Path | None = None) -> list[Frame]:
    root = root or datasets_dir()
    teacher_file = LABELS / "scenes.teacher.json"
    teacher = json.loads(teacher_file.read_text())["boxes"] if teacher_file.exists() else {}

    def with_teacher(rel: str, boxes: list) -> tuple:
        extra = [tuple(b[:4]) for b in teacher.get(rel, []) if all(iou(b[:4], g) < 0.1 for g in boxes)]
        return tuple(tuple(b) for b in boxes) + tuple(extra)

    out: list[Frame] = []
    train = json.loads((root / "plates-train" / "manifest.json").read_text())
    for item in train["items"]:
        rel = "plates-train/" + item["file"]
        if item["kind"] == "scene":
            out.append(Frame(root / rel, with_teacher(rel, item["boxes_xyxy"]), "scenes-ro", video_side(item["source"])))
        elif item["kind"] == "negative":
            out.append(Frame(root / rel, (), "negatives", "fit"))
    scenes = json.loads((root / "plates-scenes" / "manifest.json").read_text())
    for item in scenes["items"]:
        rel = "plates-scenes/" + item["file"]
        x, y, w, h = item["box_xywh"]
        side = content_side(root / rel)
        boxes = with_teacher(rel, [[x, y, x + w, y + h]]) if side == "fit" else ((x, y, x + w, y + h),)
        out.append(Frame(root / rel, boxes, "scenes-" + item["region"], side))
    return out


def scaled(frame: Frame, scale_jitter: float, rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    """The photo with its longer side near IN_W (as the server feeds the detector), and its boxes."""
    img = read_rgb(frame.path)
    h, w = img.shape[:2]
    k = IN_W / max(h, w) * math.exp(rng.uniform(-scale_jitter, scale_jitter))
    img = cv2.resize(img, (max(1, round(w * k)), max(1, round(h * k))), interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    boxes = np.array(frame.boxes, np.float32).reshape(-1, 4) * k
    return img, boxes


def real_us_plates(root: Path | None = None) -> list[Path]:
    """The `fit` crops of plates-crops-us (as the reader's data has them): real US plates, each a
    whole plate, to paste."""
    return [c.path for c in load_crops(root) if c.source == "crops-us" and c.side == "fit"]


def paste_plates(img: np.ndarray, boxes: np.ndarray, synth: PlateSynth, rng: random.Random, count: int,
                 real: list[np.ndarray] | None = None, real_share: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Plates in perspective on the frame, away from its own plates; their boxes added. Each is
    synthetic, or with `real_share` one of the `real` plate crops."""
    out = [boxes]
    h, w = img.shape[:2]
    for _ in range(count):
        if real and rng.random() < real_share:
            plate = real[rng.randrange(len(real))]
        else:
            layout = rng.choices(LAYOUTS, weights=[l.weight for l in LAYOUTS])[0]
            plate, _ = synth.render_plate(synth.plate_text(layout), layout)
        pw = rng.uniform(16, 160)
        ph = pw * plate.shape[0] / plate.shape[1]
        if pw >= w - 4 or ph >= h - 4:
            continue
        x0, y0 = rng.uniform(0, w - pw), rng.uniform(0, h - ph)
        box = (x0, y0, x0 + pw, y0 + ph)
        if any(iou(box, b) > 0 for b in np.concatenate(out)):
            continue
        skew = rng.uniform(-0.15, 0.15) * ph
        dst = np.float32([[x0, y0 + skew], [x0 + pw, y0 - skew], [x0 + pw, y0 + ph - skew], [x0, y0 + ph + skew]])
        src = np.float32([[0, 0], [plate.shape[1], 0], [plate.shape[1], plate.shape[0]], [0, plate.shape[0]]])
        m = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(plate, m, (w, h), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full(plate.shape[:2], 255, np.uint8), m, (w, h), flags=cv2.INTER_AREA)
        light = rng.uniform(0.5, 1.1)
        alpha = (mask.astype(np.float32) / 255)[..., None]
        img = (img * (1 - alpha) + np.clip(warped * light, 0, 255) * alpha).astype(np.uint8)
        out.append(np.array([[dst[:, 0].min(), dst[:, 1].min(), dst[:, 0].max(), dst[:, 1].max()]], np.float32))
    return img, np.concatenate(out)


def rotated(img: np.ndarray, boxes: np.ndarray, degrees: float, fill: int = 114) -> tuple[np.ndarray, np.ndarray]:
    """The frame turned `degrees` about its centre (positive: clockwise on screen, as a camera or a
    phone held crooked shows a plate), the same size, corners filled with `fill`; each box
    becomes the upright box around its turned corners, which is what the server's detector boxes
    a tilted plate with."""
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), -degrees, 1.0)
    out = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(fill, fill, fill))
    if len(boxes) == 0:
        return out, boxes
    corners = np.stack([boxes[:, [0, 1]], boxes[:, [2, 1]], boxes[:, [2, 3]], boxes[:, [0, 3]]], 1)  # n x 4 x 2
    turned = corners @ m[:, :2].T + m[:, 2]
    return out, np.concatenate([turned.min(1), turned.max(1)], 1).astype(np.float32)


def targets(boxes: np.ndarray, size: int) -> dict[str, np.ndarray]:
    """CenterNet targets at stride 4 for a size x size window: a Gaussian per plate centre,
    log width and height, and the centre's offset within its cell."""
    g = size // STRIDE
    heat = np.zeros((g, g), np.float32)
    wh = np.zeros((2, g, g), np.float32)
    off = np.zeros((2, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g]
    for x0, y0, x1, y1 in boxes:
        bw, bh = x1 - x0, y1 - y0
        if bw < 4 or bh < 2:
            continue
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        ix, iy = int(cx), int(cy)
        if not (0 <= ix < g and 0 <= iy < g):
            continue
        # Spread by the plate's size in cells: wide, flat plates get a wide, flat peak.
        sx, sy = max(0.7, bw / STRIDE / 6), max(0.7, bh / STRIDE / 6)
        heat = np.maximum(heat, np.exp(-((xx - cx) ** 2 / (2 * sx * sx) + (yy - cy) ** 2 / (2 * sy * sy))))
        heat[iy, ix] = 1.0
        wh[:, iy, ix] = (math.log(bw), math.log(bh))
        off[:, iy, ix] = (cx - ix, cy - iy)
        mask[iy, ix] = 1.0
    return {"heat": heat, "wh": wh, "off": off, "mask": mask}


class DetectorStream(IterableDataset):
    """Endless training windows: frames (with plates or none) and pasted plates, synthetic or
    (`real_share` of them) real crops from `real` (real_us_plates)."""

    def __init__(self, frames: list[Frame], seed: int, real: list[Path] | None = None, real_share: float = 0.0,
                 tilt_share: float = 0.0, max_tilt: float = 20.0):
        self.frames = frames
        self.seed = seed
        self.real = real or []
        self.real_share = real_share
        self.tilt_share = tilt_share
        self.max_tilt = max_tilt

    def __iter__(self):
        seed = worker_seed(self.seed)
        rng = random.Random(seed)
        synth = PlateSynth(seed)
        with_plates = [f for f in self.frames if f.boxes]
        weights = [SOURCE_WEIGHTS.get(f.source, DEV_SCENE_WEIGHT) for f in with_plates]
        without = [f for f in self.frames if not f.boxes]
        real = [read_rgb(p) for p in self.real] if self.real_share > 0 else []
        while True:
            if rng.random() < 0.75 or not without:
                frame = rng.choices(with_plates, weights)[0]
            else:
                frame = rng.choice(without)
            img, boxes = scaled(frame, 0.5, rng)
            if rng.random() < 0.6:
                img, boxes = paste_plates(img, boxes, synth, rng, rng.randint(1, 4), real, self.real_share)
            if self.tilt_share > 0 and rng.random() < self.tilt_share:
                img, boxes = rotated(img, boxes, rng.uniform(-self.max_tilt, self.max_tilt))
            # A window around a plate most of the time, anywhere otherwise.
            h, w = img.shape[:2]
            pad_h, pad_w = max(0, CROP - h), max(0, CROP - w)
            if pad_h or pad_w:
                img = cv2.copyMakeBorder(img, 0, pad_h, 0, pad_w, cv2.BORDER_CONSTANT, value=(114, 114, 114))
                h, w = img.shape[:2]
            if len(boxes) and rng.random() < 0.7:
                b = boxes[rng.randrange(len(boxes))]
                cx, cy = (b[0] + b[2]) / 2 + rng.uniform(-CROP / 3, CROP / 3), (b[1] + b[3]) / 2 + rng.uniform(-CROP / 3, CROP / 3)
                x0, y0 = int(np.clip(cx - CROP / 2, 0, w - CROP)), int(np.clip(cy - CROP / 2, 0, h - CROP))
            else:
                x0, y0 = rng.randint(0, w - CROP), rng.randint(0, h - CROP)
            win = img[y0:y0 + CROP, x0:x0 + CROP]
            kept = boxes - np.float32([x0, y0, x0, y0])
            # Plates cut by the window edge stay only when most of them is inside.
            inside = []
            for bx in kept:
                cut = np.clip(bx, 0, CROP)
                area = (bx[2] - bx[0]) * (bx[3] - bx[1])
                if area > 0 and (cut[2] - cut[0]) * (cut[3] - cut[1]) >= 0.6 * area:
                    inside.append(cut)
            kept = np.array(inside, np.float32).reshape(-1, 4)
            if rng.random() < 0.5:
                win = win[:, ::-1]
                kept = np.stack([CROP - kept[:, 2], kept[:, 1], CROP - kept[:, 0], kept[:, 3]], 1) if len(kept) else kept
            win = synth.degrade(np.ascontiguousarray(win))
            t = targets(kept, CROP)
            yield (torch.from_numpy(win).permute(2, 0, 1).float() / 255.0,
                   torch.from_numpy(t["heat"])[None], torch.from_numpy(t["wh"]), torch.from_numpy(t["off"]), torch.from_numpy(t["mask"]))
