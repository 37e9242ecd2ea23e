"""Plate boxes the labels leave out, from today's pipeline (the teacher).

The Romanian frames box only the plates ahead and the dev scenes one plate per photo; a
detector taught that every other plate is background would learn to miss them. The teacher
(`vigil plates`, regular mode) reads each training frame; a plate it returns at a score of at
least MIN_SCORE that overlaps no labeled box is added as a plate.

    /usr/bin/python3 -m vigil_train.teacher_boxes   # writes training/labels/scenes.teacher.json
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from .data import LABELS, datasets_dir
from .splits import content_side

MIN_SCORE = 0.6
REPO = Path(__file__).resolve().parents[2]


def training_frames(root: Path) -> list[str]:
    """Paths, relative to the datasets folder, of every frame the detector may train on."""
    train = json.loads((root / "plates-train" / "manifest.json").read_text())
    frames = ["plates-train/" + i["file"] for i in train["items"] if i["kind"] == "scene"]
    scenes = json.loads((root / "plates-scenes" / "manifest.json").read_text())
    frames += ["plates-scenes/" + i["file"] for i in scenes["items"] if content_side(root / "plates-scenes" / i["file"]) == "fit"]
    return frames


def main() -> None:
    root = datasets_dir()
    frames = training_frames(root)
    boxes: dict[str, list[list[float]]] = {}
    for start in range(0, len(frames), 50):
        chunk = frames[start:start + 50]
        out = subprocess.run(["node", str(REPO / "bin" / "vigil.js"), "plates", "--json", *[str(root / f) for f in chunk]],
                             check=True, capture_output=True, text=True, cwd=REPO).stdout
        for frame, response in zip(chunk, json.loads(out)):
            boxes[frame] = [[r["box"]["xmin"], r["box"]["ymin"], r["box"]["xmax"], r["box"]["ymax"], r["score"]]
                            for r in response.get("results", []) if r["score"] >= MIN_SCORE]
        print(f"{start + len(chunk)}/{len(frames)}", flush=True)
    LABELS.mkdir(exist_ok=True)
    (LABELS / "scenes.teacher.json").write_text(json.dumps({
        "teacher": "vigil plates (PP-OCR pipeline, regular mode), plates at score >= %.2f, xyxy + score" % MIN_SCORE,
        "frames": len(boxes), "boxes": boxes}, indent=0) + "\n")


if __name__ == "__main__":
    main()
