"""Pseudo-labels for the unlabeled European crops, from today's pipeline (the teacher).

Runs `vigil plates` (the repository's own CLI, built by `npm ci`) over every crop and keeps a
reading only when the teacher returned exactly one plate at a score of at least MIN_SCORE: a
wrong label teaches the reader a wrong glyph, a missing one costs only a sample.

    /usr/bin/python3 -m vigil_train.teacher    # writes training/labels/crops-eu.teacher.json
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from .data import LABELS, datasets_dir

MIN_SCORE = 0.9
REPO = Path(__file__).resolve().parents[2]


def main() -> None:
    root = datasets_dir() / "plates-train"
    manifest = json.loads((root / "manifest.json").read_text())
    files = [i["file"] for i in manifest["items"] if i["kind"] == "crop" and i["region"] == "eu"]
    labels: dict[str, str | None] = {}
    for start in range(0, len(files), 100):
        chunk = files[start:start + 100]
        out = subprocess.run(["node", str(REPO / "bin" / "vigil.js"), "plates", "--json", *[str(root / f) for f in chunk]],
                             check=True, capture_output=True, text=True, cwd=REPO).stdout
        for file, response in zip(chunk, json.loads(out)):
            results = response.get("results", [])
            ok = len(results) == 1 and results[0]["score"] >= MIN_SCORE
            labels[file] = results[0]["plate"].upper() if ok else None
        print(f"{start + len(chunk)}/{len(files)}", flush=True)
    LABELS.mkdir(exist_ok=True)
    kept = sum(1 for v in labels.values() if v)
    (LABELS / "crops-eu.teacher.json").write_text(json.dumps({
        "teacher": "vigil plates (PP-OCR pipeline), one plate at score >= %.2f" % MIN_SCORE,
        "kept": kept, "total": len(labels), "labels": labels}, indent=1) + "\n")
    print(f"kept {kept} of {len(labels)}")


if __name__ == "__main__":
    main()
