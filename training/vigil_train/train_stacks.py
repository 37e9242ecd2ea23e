"""Train the stack reader (characters painted top to bottom: trailer fleet numbers, container
codes); resumable, time-boxed, fixed seeds (see runs.py).

    /usr/bin/python3 -m vigil_train.train_stacks --run runs/stacks --init-plate ../models/plate-reader.onnx --minutes 75

The identifier reader's network and classes (train_ids.py) on a column turned a quarter
counter-clockwise, 48 x 256 (64 frames: nine characters at most with room to spare). Columns
come from stacksynth.py alone; every figure on the bench's second generator and on real photos
is out of sample. `--init-plate` starts from the shipped plate reader, as train_ids does.

Validation (best.pt): 600 fixed columns of the same generator, another seed; `unseen_fonts`, 300
columns in faces no run trains on (idsynth.UNSEEN_FONTS). `--wider-fonts` as in train_ids.py.
"""

from __future__ import annotations

from functools import partial

import torch

from .stacksynth import WIDTH, StackSynth
from .train_ids import arguments, faces, tensor, train, unseen_faces


def validation_set(seed: int = 12345, n: int = 600, fonts: list[str] | None = None) -> tuple[torch.Tensor, list[str]]:
    synth = StackSynth(seed, fonts)
    samples = [synth.sample() for _ in range(n)]
    return torch.stack([tensor(s[0]) for s in samples]), [s[1] for s in samples]


def main() -> None:
    # About 30 steps a minute on one thread beside a data worker (2026-12-03).
    args = arguments(__doc__, run="runs/stacks", minutes=75, steps=1400, batch=48, lr=1e-3, warmup=100, seed=37)
    if args.relief:
        raise SystemExit("--relief draws flat lines (IdentifierSynth.render): the stack generator has no such share")
    train(args, partial(StackSynth, fonts=faces(args)), validation_set(), frames=WIDTH // 4,
          what="columns", no_spaces=False, also=unseen_faces(validation_set))


if __name__ == "__main__":
    main()
