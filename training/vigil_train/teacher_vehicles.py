"""Vehicle boxes for the plate detector's vehicle head, from the COCO vehicle detector Vigil
already runs (the teacher: src/vision/vehicles, MB3-CenterNet from @vladmandic/human).

Every frame the detector trains on, and the held ones it is measured on, is read once by
training/vehicle-teacher.ts; boxes at a teacher score of 0.2 or more are kept with their score
and COCO class, and the trainer decides which teach a vehicle (vehicle_data.py).

    /usr/bin/python3 -m vigil_train.teacher_vehicles   # writes training/labels/vehicles.teacher.json
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from .data import LABELS, datasets_dir

REPO = Path(__file__).resolve().parents[2]
# Consecutive traffic-camera frames differ little: every fifth is enough.
CAMERA_FRAME_STEP = 5


def vehicle_frames(root: Path) -> list[str]:
    """Paths, relative to the datasets folder, of the photos the vehicle head learns from or is
    measured on (the split is the trainer's: vehicle_data.py)."""
    train = json.loads((root / "plates-train" / "manifest.json").read_text())
    frames = ["plates-train/" + i["file"] for i in train["items"] if i["kind"] in ("scene", "negative")]
    scenes = json.loads((root / "plates-scenes" / "manifest.json").read_text())
    frames += ["plates-scenes/" + i["file"] for i in scenes["items"]]
    gate = json.loads((root / "containers-gate" / "manifest.json").read_text())
    frames += ["containers-gate/" + i["file"] for i in gate["items"]]
    camera = sorted((root / "camera-scenes" / "frames").glob("*.png"), key=lambda p: int(p.stem) if p.stem.isdigit() else 0)
    frames += ["camera-scenes/frames/" + p.name for p in camera[::CAMERA_FRAME_STEP]]
    return frames


def main() -> None:
    root = datasets_dir()
    frames = vehicle_frames(root)
    paths = "\n".join(str(root / f) for f in frames) + "\n"
    out = subprocess.run(["npx", "tsx", "training/vehicle-teacher.ts"], input=paths, check=True, capture_output=True, text=True, cwd=REPO).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    by_path = {Path(r["file"]).resolve(): r for r in rows}
    labels = {}
    for f in frames:
        r = by_path[(root / f).resolve()]
        labels[f] = {"size": [r["width"], r["height"]], "vehicles": r["vehicles"]}
    LABELS.mkdir(exist_ok=True)
    head = {"teacher": "Vigil's COCO vehicle detector (MB3-CenterNet, @vladmandic/human) at score >= 0.2: xyxy, score, COCO class",
            "frames": len(labels)}
    # One frame a line: diffs of a new teacher run stay readable.
    rows = ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in labels.items())
    (LABELS / "vehicles.teacher.json").write_text(json.dumps(head)[:-1] + ', "labels": {\n' + rows + "\n}}\n")
    print(f"{len(labels)} frames, {sum(len(v['vehicles']) for v in labels.values())} vehicles", flush=True)


if __name__ == "__main__":
    main()
