"""Seconds per training step of each network, float32 against bfloat16 (`--precision bf16`).

    python3 -m vigil_train.step_speed [--threads 1] [--steps 5]

Times the network's share of a step (forward, backward, clipping, AdamW) on random inputs of
each trainer's batch and size, in one process, float32 and bfloat16 alternating; the data
worker's share (synthesis, about 5 ms a plate) is not in it. Says whether `--precision bf16`
pays on this CPU: on one with AMX or AVX-512 BF16 it did (training/README.md); on one without,
bfloat16 is emulated and slower.
"""

from __future__ import annotations

import argparse
import statistics
import time

import torch
from torch import nn

from . import idsynth, stacksynth, train_ids
from .detector import PlateDetector
from .detector_data import CROP
from .model import HEIGHT, WIDTH, PlateReader
from .runs import in_lower_precision

# Each trainer's default batch and input size.
NETWORKS = {
    "plate reader": (lambda: PlateReader(), 64, (3, HEIGHT, WIDTH)),
    "identifier reader": (lambda: PlateReader(classes=train_ids.CLASSES), 48, (3, idsynth.HEIGHT, idsynth.WIDTH)),
    "stack reader": (lambda: PlateReader(classes=train_ids.CLASSES), 48, (3, stacksynth.HEIGHT, stacksynth.WIDTH)),
    "plate detector": (lambda: PlateDetector(), 16, (3, CROP, CROP)),
}


def step_seconds(make, batch: int, shape: tuple[int, ...], lower: bool, steps: int) -> list[float]:
    torch.manual_seed(0)
    model = make()
    if lower:
        in_lower_precision(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    x = torch.rand(batch, *shape)
    times = []
    for i in range(steps + 1):
        started = time.perf_counter()
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=lower):
            out = model(x)
        outs = out if isinstance(out, tuple) else (out,)
        loss = sum(o.float().square().mean() for o in outs)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        if i:  # the first step sets up oneDNN's kernels
            times.append(time.perf_counter() - started)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=5)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    print(f"torch {torch.__version__}, {args.threads} thread(s), median of {args.steps} steps")
    for name, (make, batch, shape) in NETWORKS.items():
        full = statistics.median(step_seconds(make, batch, shape, False, args.steps))
        lower = statistics.median(step_seconds(make, batch, shape, True, args.steps))
        print(f"{name:18s} batch {batch:2d} x {'x'.join(map(str, shape))}: float32 {full:.3f} s, bfloat16 {lower:.3f} s, "
              f"{full / lower:.1f}x", flush=True)


if __name__ == "__main__":
    main()
