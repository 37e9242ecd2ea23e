"""What every training run shares: resuming, checkpoints, the learning-rate schedule, the loop.

A run lives in a folder (git-ignored): `last.pt` holds the model, the optimiser, the step and the
training time so far, written every CHECKPOINT_EVERY steps and at the end; `best.pt` holds the
model that scored best on validation. Running the same command again resumes from `last.pt`; the
schedule is by step, so an interrupted run ends where an uninterrupted one would.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path
from typing import Callable, Iterable

import numpy as np
import torch
from torch import nn

CHECKPOINT_EVERY = 200


def learning_rate(step: int, total: int, peak: float, warmup: int, time_done: float = 0.0) -> float:
    """Linear warm-up (CTC emits only blanks for its first minutes; a high rate then diverges),
    then a cosine down to 2% of the peak, by steps or, where further on, by `time_done` (the share
    of the run's minutes spent: --by-time)."""
    if step < warmup:
        return peak * (0.05 + 0.95 * step / warmup)
    t = min(1.0, max(time_done, (step - warmup) / max(1, total - warmup)))
    return peak * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * t)))


def run_arguments(doc: str | None, *, run: str, minutes: float, steps: int, batch: int, lr: float, warmup: int, seed: int) -> argparse.ArgumentParser:
    """The options every trainer takes, with its own defaults; a trainer adds its own after."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", default=run, help="checkpoint folder (git-ignored)")
    ap.add_argument("--minutes", type=float, default=minutes, help="stop (with a checkpoint) after this long")
    ap.add_argument("--steps", type=int, default=steps, help="length of the learning-rate schedule")
    ap.add_argument("--batch", type=int, default=batch)
    ap.add_argument("--lr", type=float, default=lr, help="peak learning rate")
    ap.add_argument("--warmup", type=int, default=warmup)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (the data worker takes another core)")
    ap.add_argument("--workers", type=int, default=1, help="data-loader processes (synthesis and jitter are the CPU's work; a GPU wants many)")
    ap.add_argument("--device", default="auto", help="cpu, cuda, or auto: a GPU where torch sees one")
    ap.add_argument("--precision", choices=("fp32", "bf16"), default="fp32",
                    help="bf16: the forward pass in bfloat16 (weights, optimiser and checkpoints stay float32), "
                         "channels-last; about 3x a step on a CPU with AMX or AVX-512 BF16 (training/README.md)")
    ap.add_argument("--by-time", action="store_true",
                    help="the rate also comes down with this invocation's share of --minutes (a machine of unknown speed: "
                         "the schedule ends within the minutes; give --steps more than it can reach)")
    return ap


def schedule(args: argparse.Namespace) -> dict:
    """Run.train's schedule, from the options run_arguments parsed."""
    return {"steps": args.steps, "minutes": args.minutes, "peak_lr": args.lr, "warmup": args.warmup, "by_time": args.by_time,
            "precision": args.precision}


def loader_options(workers: int) -> dict:
    """DataLoader options for `workers` processes (0: in the training process itself)."""
    if workers <= 0:
        return {"num_workers": 0}
    return {"num_workers": workers, "prefetch_factor": 4, "persistent_workers": True, "pin_memory": torch.cuda.is_available()}


def device_of(name: str) -> torch.device:
    """--device: `auto` is the GPU where torch sees one. Every run also runs on the CPU alone."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def cpu_state(module: nn.Module | torch.optim.Optimizer) -> dict:
    """A state dict with every tensor on the CPU: a checkpoint made on a GPU loads anywhere."""
    def to_cpu(v):
        if isinstance(v, torch.Tensor):
            return v.detach().cpu()
        if isinstance(v, dict):
            return {k: to_cpu(x) for k, x in v.items()}
        if isinstance(v, list):
            return [to_cpu(x) for x in v]
        return v
    return to_cpu(module.state_dict())


def in_lower_precision(model: nn.Module) -> None:
    """Readies `model` for bfloat16 autocast: 4-D weights and inputs channels-last, the layout in
    which oneDNN runs its AMX and AVX-512 BF16 kernels (bf16 alone in the default layout gained
    half as much here), and its outputs back in float32, so that every loss is taken in float32.
    The parameters stay float32: what the optimiser steps and the checkpoints hold."""
    model.to(memory_format=torch.channels_last)

    def channels_last(_module, inputs):
        return tuple(x.contiguous(memory_format=torch.channels_last) if isinstance(x, torch.Tensor) and x.dim() == 4 else x
                     for x in inputs)

    def as_float(_module, _inputs, out):
        if isinstance(out, torch.Tensor):
            return out.float() if out.is_floating_point() else out
        if isinstance(out, tuple):
            return tuple(x.float() if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in out)
        return out

    model.register_forward_pre_hook(channels_last)
    model.register_forward_hook(as_float)


def worker_seed(base: int) -> int:
    """A data-loader worker's own seed (workers of one run must not draw the same samples)."""
    info = torch.utils.data.get_worker_info()
    return base + (info.id if info else 0) * 7919


class Run:
    def __init__(self, folder: Path, model: nn.Module, opt: torch.optim.Optimizer):
        self.folder, self.model, self.opt = folder, model, opt
        folder.mkdir(parents=True, exist_ok=True)
        self.step, self.best, self.elapsed = 0, -math.inf, 0.0
        self.started = time.time()
        last = folder / "last.pt"
        if last.exists():
            # Tensors, numbers and dicts only, which torch 2.6+'s weights_only loading accepts too.
            state = torch.load(last, map_location="cpu")
            model.load_state_dict(state["model"])
            opt.load_state_dict(state["opt"])
            self.step, self.best, self.elapsed = state["step"], state["best"], state.get("elapsed", 0.0)
            print(f"resumed at step {self.step} ({self.elapsed / 60:.1f} min trained, best {self.best:.3f})", flush=True)

    def to(self, device: torch.device) -> "Run":
        """Moves the model, and an optimiser state resumed on the CPU, to `device`."""
        self.model.to(device)
        for state in self.opt.state.values():
            for k, v in state.items():
                if isinstance(v, torch.Tensor):
                    state[k] = v.to(device)
        return self

    def minutes(self) -> float:
        return (time.time() - self.started) / 60

    def checkpoint(self, score: float, report: dict) -> None:
        """Keeps the model when it scores best so far, and writes last.pt (atomically)."""
        if score > self.best:
            self.best = score
            torch.save({"model": cpu_state(self.model), "step": self.step, "val": report}, self.folder / "best.pt")
        tmp = self.folder / "last.tmp"
        torch.save({"model": cpu_state(self.model), "opt": cpu_state(self.opt), "step": self.step, "best": self.best,
                    "elapsed": self.elapsed + time.time() - self.started}, tmp)
        tmp.replace(self.folder / "last.pt")
        print(f"step {self.step} validation {report} (best {self.best:.3f})", flush=True)

    def train(self, batches: Iterable, loss_of: Callable[[object], torch.Tensor], validate: Callable[[], tuple[float, dict]],
              *, steps: int, minutes: float, peak_lr: float, warmup: int, clip: float, by_time: bool = False,
              precision: str = "fp32") -> None:
        """Steps until `steps` or `minutes` run out; validates and checkpoints on the way and at the end.
        `by_time`: the rate's schedule ends with the minutes where they run out first. `precision`
        bf16: each step's forward pass under bfloat16 autocast (validation stays float32)."""
        lower = precision == "bf16"
        device_type = next(self.model.parameters()).device.type
        if lower:
            in_lower_precision(self.model)
        losses: list[float] = []
        skipped = 0
        self.model.train()
        for batch in batches:
            if self.step >= steps or self.minutes() > minutes:
                break
            for g in self.opt.param_groups:
                g["lr"] = learning_rate(self.step, steps, peak_lr, warmup, self.minutes() / minutes if by_time else 0.0)
            with torch.autocast(device_type, dtype=torch.bfloat16, enabled=lower):
                loss = loss_of(batch)
            self.opt.zero_grad()
            loss.backward()
            norm = nn.utils.clip_grad_norm_(self.model.parameters(), clip)
            self.step += 1
            # A batch whose loss or gradients are not finite is skipped: one such step turns
            # every weight to NaN (clipping an infinite norm multiplies by zero), and the run
            # would go on training a dead network until its end.
            if torch.isfinite(loss) and torch.isfinite(norm):
                self.opt.step()
                losses.append(loss.item())
            else:
                skipped += 1
                print(f"step {self.step} skipped: loss {loss.item()}, gradient norm {norm.item()} ({skipped} skipped)", flush=True)
            if self.step % 50 == 0 and losses:
                print(f"step {self.step} loss {np.mean(losses[-50:]):.3f} lr {self.opt.param_groups[0]['lr']:.5f} {self.minutes():.1f} min", flush=True)
            if self.step % CHECKPOINT_EVERY == 0:
                self.checkpoint(*self._validated(validate))
        self.checkpoint(*self._validated(validate))
        print(f"stopped at step {self.step}, best {self.best:.3f}", flush=True)

    def _validated(self, validate: Callable[[], tuple[float, dict]]) -> tuple[float, dict]:
        self.model.eval()
        try:
            with torch.no_grad():
                return validate()
        finally:
            self.model.train()
