"""Pack the reader's training material into one folder that travels to a machine without the
datasets or Debian's fonts (a GPU machine lent for a session: its working tree is limited to
64 MiB and it cannot reach ../shared):

    /usr/bin/python3 -m vigil_train.pack --out packs/reader     # git-ignored (training/packs/)

writes every labeled crop the reader trains or validates on (load_crops(us_validation=True)):
the crop, or the part of a scene photo around its box, shrunk to at most PACK_HEIGHT pixels
of box height, as a JPEG; `pack.json` with each crop's text, source, side and box in its own
file; and the fonts the synthetic plates and identifier lines are drawn in. Sides are decided here, from the
original files' contents (a packed JPEG's bytes hash differently), and travel as written.
`VIGIL_PACK=packs/reader` then makes load_crops read the pack, and `VIGIL_FONTS=packs/reader/fonts`
makes the synthetic plates use its fonts (training/README.md, Training on a lent GPU).

The pack holds dataset images: it stays out of the repository (.gitignore: training/packs/).
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import cv2

from .data import Crop, load_crops, read_rgb
from .idsynth import EXTRA_FONTS, FURTHER_FONTS, UNSEEN_FONTS, WIDER_FONTS
from .synth import LEGEND_GLOBS, _existing, available

# Twice the reader's input height: the jitter and degradations still start from more pixels
# than the reader sees, and the pack stays small (about 4,000 crops).
PACK_HEIGHT = 96
# Room around a box in a scene photo: the trainer's jitter moves corners by up to a tenth.
MARGIN = 0.3


def pack_crop(crop: Crop, out: Path, index: int) -> dict:
    img = read_rgb(crop.path)
    h, w = img.shape[:2]
    if crop.box is None:
        x0, y0, x1, y1 = 0, 0, w, h
        box = None
    else:
        bx, by, bw, bh = crop.box
        x0, y0 = max(0, int(bx - MARGIN * bw)), max(0, int(by - MARGIN * bh))
        x1, y1 = min(w, int(bx + bw + MARGIN * bw + 1)), min(h, int(by + bh + MARGIN * bh + 1))
        box = [bx - x0, by - y0, bw, bh]
    part = img[y0:y1, x0:x1]
    box_h = crop.box[3] if crop.box else h
    scale = min(1.0, PACK_HEIGHT / max(1.0, box_h))
    if scale < 1.0:
        part = cv2.resize(part, (max(1, round(part.shape[1] * scale)), max(1, round(part.shape[0] * scale))), interpolation=cv2.INTER_AREA)
        box = [v * scale for v in box] if box else None
    name = f"crops/{index:05d}.jpg"
    cv2.imwrite(str(out / name), cv2.cvtColor(part, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 93])
    return {"file": name, "text": crop.text, "source": crop.source, "side": crop.side, "box": box}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("packs/reader"))
    args = ap.parse_args()
    out: Path = args.out
    if out.exists():
        shutil.rmtree(out)
    (out / "crops").mkdir(parents=True)
    (out / "fonts").mkdir()
    crops = load_crops(us_validation=True)
    entries = [pack_crop(c, out, i) for i, c in enumerate(crops)]
    (out / "pack.json").write_text(json.dumps({"crops": entries}))
    # The plate faces and legends, and the identifier generator's other faces (train_ids.py): its
    # wider, further and unseen ones where installed.
    fonts = _existing(LEGEND_GLOBS + EXTRA_FONTS) + available(WIDER_FONTS + FURTHER_FONTS + UNSEEN_FONTS)
    for f in fonts:
        # By folder and name, as synth.py looks them up under VIGIL_FONTS.
        (out / "fonts" / Path(f).parent.name).mkdir(exist_ok=True)
        shutil.copy(f, out / "fonts" / Path(f).parent.name / Path(f).name)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"{out}: {len(entries)} crops, {len(fonts)} fonts, {size / 2**20:.1f} MiB", flush=True)


if __name__ == "__main__":
    main()
