"""Where the number's text line lies in each trainable crop and photo, from today's pipeline.

The pipeline hands the reader the text line the text detector boxed (padded a little), not the
whole plate; the real crops show whole plates. The teacher (`vigil plates`, regular mode) reads
every trainable image; where its reading equals the label, the line it read is recovered from
the plate box it returned (plate-box.ts draws that box around the text with fixed margins) and
kept, so the reader also trains on real lines cut the way the pipeline cuts them.

    /usr/bin/python3 -m vigil_train.teacher_lines   # writes training/labels/lines.teacher.json
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import cv2

from .charset import normalize
from .data import LABELS, Crop, datasets_dir, load_crops

REPO = Path(__file__).resolve().parents[2]
# PLATE_MARGINS in src/vision/plates/plate-box.ts: above and below in line heights, each side in text widths.
ABOVE, BELOW, SIDE = 0.25, 0.1, 0.04
# A line narrower than this many heights is a two-line plate's box, not one line.
MIN_LINE_ASPECT = 2.2


def text_line(box: dict, width: int, height: int) -> list[float] | None:
    """The text box inside a returned plate box (x, y, w, h); None where the plate box was
    clipped by the image's edge (the margins can no longer be undone)."""
    x0, y0, x1, y1 = box["xmin"], box["ymin"], box["xmax"], box["ymax"]
    if x0 <= 0 or y0 <= 0 or x1 >= width or y1 >= height:
        return None
    th = (y1 - y0) / (1 + ABOVE + BELOW)
    tw = (x1 - x0) / (1 + 2 * SIDE)
    if tw < MIN_LINE_ASPECT * th:
        return None
    return [x0 + SIDE * tw, y0 + ABOVE * th, tw, th]


def main() -> None:
    crops = [c for c in load_crops() if c.side == "fit"]
    lines: dict[str, list] = {}
    for start in range(0, len(crops), 50):
        chunk: list[Crop] = crops[start:start + 50]
        out = subprocess.run(["node", str(REPO / "bin" / "vigil.js"), "plates", "--json", *[str(c.path) for c in chunk]],
                             check=True, capture_output=True, text=True, cwd=REPO).stdout
        for crop, response in zip(chunk, json.loads(out)):
            img = cv2.imread(str(crop.path), cv2.IMREAD_GRAYSCALE)
            for r in response.get("results", []):
                if normalize(r["plate"]) != crop.text:
                    continue
                line = text_line(r["box"], img.shape[1], img.shape[0])
                if line:
                    lines[str(crop.path.relative_to(datasets_dir()))] = [crop.source, crop.text, [round(v, 1) for v in line]]
                break
        print(f"{start + len(chunk)}/{len(crops)} lines {len(lines)}", flush=True)
    LABELS.mkdir(exist_ok=True)
    (LABELS / "lines.teacher.json").write_text(json.dumps({
        "teacher": "vigil plates (PP-OCR pipeline, regular mode): the text line of a reading equal to the label, x y w h",
        "count": len(lines), "lines": lines}, indent=0) + "\n")


if __name__ == "__main__":
    main()
