"""Labeled plate crops from ../shared/datasets, each tagged with the split it belongs to.

- plates-train/crops-br: Brazilian crops with their text, split by plate text.
- plates-train/crops-eu: European crops, labeled by today's pipeline (the teacher; see
  training/labels/crops-eu.teacher.json and the README), all trainable.
- plates-crops-us, plates-scenes: the dev sets, split by a hash of file contents; only 'fit'
  files are ever trained on, 'held' ones give the figures we quote.
- lines-*: the text line of a 'fit' crop or photo, where today's pipeline reads it (see
  teacher_lines.py), cut as the pipeline cuts it.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .charset import normalize
from .splits import content_side, text_side, validation_part

HERE = Path(__file__).resolve().parent
LABELS = HERE.parent / "labels"


def datasets_dir() -> Path:
    return Path(os.environ.get("VIGIL_DATASETS", HERE.parents[2] / "shared" / "datasets")).resolve()


@dataclass(frozen=True)
class Crop:
    path: Path
    text: str  # normalized (O->0, I->1)
    source: str  # crops-br, crops-eu, crops-us, scenes-us, ...
    side: str  # 'fit' or 'held'; 'val' for US files the reader validates on (load_crops(us_validation=True))
    box: tuple[float, float, float, float] | None = None  # x, y, w, h inside a scene photo


# Two-line plates (Swiss, Dutch yellow, motorcycles) are squarer than this; the teacher reads one of
# their lines, so a label for the whole crop would be half its text.
MIN_SINGLE_LINE_ASPECT = 3.0


def single_line(path: Path) -> bool:
    img = cv2.imread(str(path), cv2.IMREAD_REDUCED_GRAYSCALE_2)
    return img is not None and img.shape[1] / img.shape[0] >= MIN_SINGLE_LINE_ASPECT


def load_crops(root: Path | None = None, us_validation: bool = False) -> list[Crop]:
    """Every labeled crop with its side. With `us_validation`, a fifth of the US `fit` files (and
    the teacher lines cut from them) become 'val': the reader's validation then holds real US
    plates, which neither the Brazilian nor the synthetic ones stand in for. With VIGIL_PACK set,
    the crops of that pack (pack.py), sides as they were decided when it was made."""
    if os.environ.get("VIGIL_PACK") and root is None:
        return packed_crops(Path(os.environ["VIGIL_PACK"]).resolve(), us_validation)
    root = root or datasets_dir()

    def dev_side(p: Path) -> str:
        side = content_side(p)
        return "val" if us_validation and side == "fit" and validation_part(p) else side

    out: list[Crop] = []
    train = json.loads((root / "plates-train" / "manifest.json").read_text())
    for item in train["items"]:
        if item["kind"] == "crop" and item.get("plate"):
            text = normalize(item["plate"])
            out.append(Crop(root / "plates-train" / item["file"], text, "crops-br", text_side(text)))
    teacher = LABELS / "crops-eu.teacher.json"
    if teacher.exists():
        for file, plate in json.loads(teacher.read_text())["labels"].items():
            path = root / "plates-train" / file
            if plate and single_line(path):
                out.append(Crop(path, normalize(plate), "crops-eu", "fit"))
    us = json.loads((root / "plates-crops-us" / "manifest.json").read_text())
    for item in us["items"]:
        p = root / "plates-crops-us" / item["file"]
        out.append(Crop(p, normalize(item["plate"]), "crops-us", dev_side(p)))
    scenes = json.loads((root / "plates-scenes" / "manifest.json").read_text())
    for item in scenes["items"]:
        p = root / "plates-scenes" / item["file"]
        side = dev_side(p) if item["region"] == "us" else content_side(p)
        out.append(Crop(p, normalize(item["plate"]), "scenes-" + item["region"], side, tuple(item["box_xywh"])))
    lines = LABELS / "lines.teacher.json"
    if lines.exists():
        for file, (source, text, box) in json.loads(lines.read_text())["lines"].items():
            x, y, w, h = box
            # The pipeline's margin around a line (plate-reread.ts: a tenth of its height at each end, a twentieth above and below).
            side = dev_side(root / file) if source in ("crops-us", "scenes-us") else "fit"
            out.append(Crop(root / file, text, "lines-" + source, side, (x - 0.1 * h, y - 0.05 * h, w + 0.2 * h, 1.1 * h)))
    return out


def packed_crops(pack: Path, us_validation: bool) -> list[Crop]:
    """The crops of a pack (pack.py); its 'val' files are 'fit' unless `us_validation`."""
    out = []
    for e in json.loads((pack / "pack.json").read_text())["crops"]:
        side = "fit" if e["side"] == "val" and not us_validation else e["side"]
        out.append(Crop(pack / e["file"], e["text"], e["source"], side, tuple(e["box"]) if e["box"] else None))
    return out


_scene_cache: dict[Path, np.ndarray] = {}


def read_rgb(path: Path) -> np.ndarray:
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError(f"cannot decode {path}")
    return cv2.cvtColor(img, cv2.COLOR_BGR2RGB)


def crop_pixels(crop: Crop, rng: random.Random | None, out_w: int = 160, out_h: int = 48) -> np.ndarray:
    """The crop as the reader sees it, 48x160 RGB; with `rng`, jittered like a detector's box."""
    if crop.box is None:
        img = read_rgb(crop.path)
        h, w = img.shape[:2]
        x0, y0, x1, y1 = 0.0, 0.0, float(w), float(h)
        src = img
    else:
        if crop.path not in _scene_cache:
            if len(_scene_cache) > 64:
                _scene_cache.clear()
            _scene_cache[crop.path] = read_rgb(crop.path)
        src = _scene_cache[crop.path]
        x, y, w, h = crop.box
        x0, y0, x1, y1 = x, y, x + w, y + h
    bw, bh = x1 - x0, y1 - y0
    if rng is None:
        quad = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    else:
        # Corners move independently by up to 8% of the box: shifted, tighter or looser boxes.
        quad = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
        quad += np.float32([[rng.uniform(-0.08, 0.08) * bw, rng.uniform(-0.1, 0.1) * bh] for _ in range(4)])
    dst = np.float32([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]])
    m = cv2.getPerspectiveTransform(quad, dst)
    return cv2.warpPerspective(src, m, (out_w, out_h), flags=cv2.INTER_AREA if bh > out_h else cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
