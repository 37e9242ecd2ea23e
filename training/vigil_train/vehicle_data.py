"""Training frames for the vehicle head, and the targets it learns.

Frames: every photo in training/labels/vehicles.teacher.json (Romanian dashcam frames, dev plate
scenes, frames without plates, container gate photos, traffic-camera frames), boxed by the COCO
vehicle detector (the teacher). Whole frames, letterboxed as the server feeds the detector:
vehicles are large, and a window would cut them in half.

Split: the dev scenes and the other photos by a hash of their contents (splits.content_side), the
Romanian frames by whole video (detector_data.video_side), as the plate detector is split.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
from torch.utils.data import IterableDataset

from .data import LABELS, datasets_dir, read_rgb
from .detector import IN_H, IN_W, VEHICLE_CLASSES, VEHICLE_STRIDE
from .detector_data import video_side
from .runs import worker_seed
from .splits import content_side
from .synth import PlateSynth

# The dev scenes' car photos (what users send) are drawn this many times as often as a dashcam
# or camera frame, as for the plate detector.
DEV_SCENE_WEIGHT = 3.0
# A teacher box at this score or more is a vehicle; under it (down to the teacher's floor, 0.2)
# it is unsure: neither taught as a vehicle nor as background.
SURE = 0.3


@dataclass(frozen=True)
class VehicleFrame:
    path: Path
    sure: tuple[tuple[float, float, float, float, int], ...]  # xyxy in photo pixels, class index
    unsure: tuple[tuple[float, float, float, float], ...]
    side: str  # 'fit' or 'held'


def load_vehicle_frames(root: Path | None = None) -> list[VehicleFrame]:
    root = root or datasets_dir()
    labels = json.loads((LABELS / "vehicles.teacher.json").read_text())["labels"]
    sources = {"plates-train/" + i["file"]: i["source"] for i in json.loads((root / "plates-train" / "manifest.json").read_text())["items"]}
    out = []
    for rel, label in labels.items():
        path = root / rel
        rows = label["vehicles"]
        sure = tuple((*b[:4], VEHICLE_CLASSES.index(b[5])) for b in rows if b[4] >= SURE)
        unsure = tuple(tuple(b[:4]) for b in rows if b[4] < SURE)
        side = video_side(sources[rel]) if rel.startswith("plates-train/scenes") else content_side(path)
        out.append(VehicleFrame(path, sure, unsure, side))
    return out


def letterboxed(img: np.ndarray, k: float, x0: int, y0: int) -> np.ndarray:
    """The photo scaled by k onto the grey 640 x 384 input at (x0, y0)."""
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(1, round(w * k)), max(1, round(h * k))), interpolation=cv2.INTER_AREA)
    out = np.full((IN_H, IN_W, 3), 114, np.uint8)
    sh, sw = min(small.shape[0], IN_H - y0), min(small.shape[1], IN_W - x0)
    out[y0:y0 + sh, x0:x0 + sw] = small[:sh, :sw]
    return out


def vehicle_targets(sure: np.ndarray, unsure: np.ndarray) -> dict[str, np.ndarray]:
    """CenterNet targets at stride 16: a Gaussian per vehicle centre in its class's map, log width
    and height, the centre's offset; `weight` is 0 on the cells an unsure box covers."""
    gh, gw = IN_H // VEHICLE_STRIDE, IN_W // VEHICLE_STRIDE
    heat = np.zeros((len(VEHICLE_CLASSES), gh, gw), np.float32)
    wh = np.zeros((2, gh, gw), np.float32)
    off = np.zeros((2, gh, gw), np.float32)
    mask = np.zeros((gh, gw), np.float32)
    weight = np.ones((gh, gw), np.float32)
    yy, xx = np.mgrid[0:gh, 0:gw]
    for x0, y0, x1, y1 in unsure:
        # The middle half of an unsure box: where its centre could be.
        cx, cy, hw, hh = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 4, (y1 - y0) / 4
        inside = (np.abs(xx * VEHICLE_STRIDE + VEHICLE_STRIDE / 2 - cx) <= hw) & (np.abs(yy * VEHICLE_STRIDE + VEHICLE_STRIDE / 2 - cy) <= hh)
        weight[inside] = 0
    for x0, y0, x1, y1, c in sure:
        bw, bh = x1 - x0, y1 - y0
        if bw < 8 or bh < 8:
            continue
        cx, cy = (x0 + x1) / 2 / VEHICLE_STRIDE, (y0 + y1) / 2 / VEHICLE_STRIDE
        ix, iy = int(cx), int(cy)
        if not (0 <= ix < gw and 0 <= iy < gh):
            continue
        # CenterNet's spread (about a twentieth of the box): a vehicle spans tens of cells, and a
        # peak as wide as a sixth of it (the plates' rule) left the centre unsure and its peak low.
        sx, sy = max(0.6, bw / VEHICLE_STRIDE / 20), max(0.6, bh / VEHICLE_STRIDE / 20)
        c = int(c)
        heat[c] = np.maximum(heat[c], np.exp(-((xx - cx) ** 2 / (2 * sx * sx) + (yy - cy) ** 2 / (2 * sy * sy))))
        heat[c, iy, ix] = 1.0
        weight[iy, ix] = 1.0
        wh[:, iy, ix] = (math.log(bw), math.log(bh))
        off[:, iy, ix] = (cx - ix, cy - iy)
        mask[iy, ix] = 1.0
    return {"heat": heat, "wh": wh, "off": off, "mask": mask, "weight": weight}


def placed(frame: VehicleFrame, rng: random.Random | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The frame as the detector's input and its boxes in input pixels. Without `rng`, exactly as
    the server places it (fitted, top left); with it, shrunk by up to half, anywhere, maybe mirrored."""
    img = read_rgb(frame.path)
    h, w = img.shape[:2]
    k = min(IN_W / w, IN_H / h)
    x0 = y0 = 0
    if rng is not None:
        k *= rng.uniform(0.5, 1.0) if rng.random() < 0.4 else 1.0
        x0, y0 = rng.randint(0, max(0, IN_W - round(w * k))), rng.randint(0, max(0, IN_H - round(h * k)))
    shift = np.float32([x0, y0, x0, y0])
    sure = np.array([b[:4] for b in frame.sure], np.float32).reshape(-1, 4) * k + shift
    classes = np.array([b[4] for b in frame.sure], np.float32).reshape(-1, 1)
    unsure = np.array(frame.unsure, np.float32).reshape(-1, 4) * k + shift
    out = letterboxed(img, k, x0, y0)
    if rng is not None and rng.random() < 0.5:
        out = np.ascontiguousarray(out[:, ::-1])
        flip = lambda b: np.stack([IN_W - b[:, 2], b[:, 1], IN_W - b[:, 0], b[:, 3]], 1) if len(b) else b
        sure, unsure = flip(sure), flip(unsure)
    return out, np.concatenate([sure, classes], 1), unsure, k


class VehicleStream(IterableDataset):
    """Endless whole frames with their vehicle targets."""

    def __init__(self, frames: list[VehicleFrame], seed: int):
        self.frames = frames
        self.seed = seed

    def __iter__(self):
        seed = worker_seed(self.seed)
        rng = random.Random(seed)
        synth = PlateSynth(seed)
        weights = [DEV_SCENE_WEIGHT if "plates-scenes/" in str(f.path) else 1.0 for f in self.frames]
        while True:
            frame = rng.choices(self.frames, weights)[0]
            img, sure, unsure, _ = placed(frame, rng)
            img = synth.degrade(img)
            t = vehicle_targets(sure, unsure)
            yield (torch.from_numpy(img).permute(2, 0, 1).float() / 255.0, torch.from_numpy(t["heat"]), torch.from_numpy(t["wh"]),
                   torch.from_numpy(t["off"]), torch.from_numpy(t["mask"]), torch.from_numpy(t["weight"]))
