"""Train the identifier reader (VINs, container codes, trailer and hull numbers, odometer digits);
resumable, time-boxed, fixed seeds (see runs.py).

    /usr/bin/python3 -m vigil_train.train_ids --run runs/ids --init-plate ../models/plate-reader.onnx --minutes 100

The plate reader's network (model.py) with its own classes: the 36 letters and digits, O and I
apart (an ISO 6346 owner code needs them), and a space, read at 48 x 384 (96 frames: a VIN and
its caption fit). Lines come from the third generator (idsynth.py) alone; nothing real is
trained on, so every real figure is out of sample. `--init-plate` starts from the shipped plate
reader: its convolutions already know these glyphs; each class takes the plate reader's row
for its character (O that of 0, I that of 1), the space a fresh one.

Validation (best.pt): 600 fixed lines of the same generator, another seed; `unseen_fonts`, 300 lines
in faces no run trains on (idsynth.UNSEEN_FONTS). `--wider-fonts` draws in idsynth.WIDER_FONTS too.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, IterableDataset

from . import charset
from .idsynth import FURTHER_FONTS, HEIGHT, IDENTIFIER_FONTS, UNSEEN_FONTS, WIDER_FONTS, WIDTH, IdentifierSynth
from .synth import available
from .model import ExportWrapper, PlateReader, ctc_loss_of, parameter_count, width_argument
from .runs import Run, device_of, loader_options, run_arguments, schedule, worker_seed
from .warm_start import load_onnx_weights
from .widen import start_from_export

# Class 0 is the blank; then the characters; the space last, as PP-OCR's tables end.
CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ "
CLASSES = len(CHARS) + 1
INDEX = {c: i + 1 for i, c in enumerate(CHARS)}


def encode(text: str) -> list[int]:
    return [INDEX[c] for c in " ".join(text.upper().split()) if c in INDEX]


def decode(frame_classes) -> str:
    return charset.greedy_decode(frame_classes, CHARS).strip()


def tensor(img: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(img)).permute(2, 0, 1).float() / 255.0


class Samples(IterableDataset):
    """An endless stream of (image, target) from a generator class (`make_synth(seed)`), each
    data-loader worker with its own seed."""

    def __init__(self, make_synth, seed: int):
        self.make_synth, self.seed = make_synth, seed

    def __iter__(self):
        synth = self.make_synth(worker_seed(self.seed))
        while True:
            img, text = synth.sample()
            target = encode(text)
            if target:
                yield tensor(img), target


def collate(batch):
    images = torch.stack([b[0] for b in batch])
    targets = torch.tensor([t for b in batch for t in b[1]], dtype=torch.long)
    lengths = torch.tensor([len(b[1]) for b in batch], dtype=torch.long)
    return images, targets, lengths


def validation_set(seed: int = 12345, n: int = 600, fonts: list[str] | None = None) -> tuple[torch.Tensor, list[str]]:
    synth = IdentifierSynth(seed, fonts)
    samples = [synth.sample() for _ in range(n)]
    return torch.stack([tensor(s[0]) for s in samples]), [" ".join(s[1].split()) for s in samples]


@torch.no_grad()
def accuracy(model: nn.Module, x: torch.Tensor, texts: list[str], ignore_spaces: bool = False) -> float:
    right = 0
    device = next(model.parameters()).device
    for i in range(0, len(texts), 100):
        pred = model(x[i:i + 100].to(device)).argmax(-1).cpu()
        for p, t in zip(pred.tolist(), texts[i:i + 100]):
            got = decode(p)
            right += (got.replace(" ", "") == t.replace(" ", "")) if ignore_spaces else got == t
    return right / max(1, len(texts))


@torch.no_grad()
def init_from_plate_reader(model: PlateReader, path: Path, synth: IdentifierSynth) -> None:
    """The shipped plate reader's weights, its classifier rows mapped to these classes."""
    plate = PlateReader()
    lines = [cv2.resize(synth.render(*synth.text()), (160, 48)) for _ in range(64)]
    load_onnx_weights(plate, path, torch.stack([tensor(l) for l in lines]), ExportWrapper)
    state = {k: v for k, v in plate.state_dict().items() if not k.startswith("classifier.")}
    model.load_state_dict(state, strict=False)
    weight, bias = plate.classifier.weight, plate.classifier.bias
    new_w, new_b = model.classifier.weight, model.classifier.bias
    new_w[0], new_b[0] = weight[0], bias[0]
    for c, k in INDEX.items():
        source = charset.INDEX.get(charset.normalize(c)) if c != " " else None
        if source is not None:
            new_w[k], new_b[k] = weight[source], bias[source]
        else:  # the space: a fresh row, unlikely at first
            new_w[k].normal_(0, 0.01)
            new_b[k] = bias[0] - 4
    print(f"classifier rows from {path} (O from 0, I from 1, space fresh)", flush=True)


def train(args, make_synth, validation: tuple[torch.Tensor, list[str]], *, frames: int, what: str, no_spaces: bool,
          also: dict[str, tuple[torch.Tensor, list[str]]] | None = None) -> None:
    """One resumable run of the identifier reader's network on `make_synth`'s samples (see
    train_stacks.py too), from the shipped plate reader where `--init-plate` says so. `also`:
    more validation sets, reported beside the first (which alone picks best.pt)."""
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    x_val, t_val = validation
    print(f"validation: {len(t_val)} synthetic {what}; {frames} frames per {what[:-1]}", flush=True)
    model = PlateReader(width=args.width, classes=CLASSES)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    run = Run(Path(args.run), model, opt)
    print(f"parameters: {parameter_count(model)}", flush=True)
    if args.init_plate and run.step == 0:
        init_from_plate_reader(model, args.init_plate, make_synth(args.seed + 5))
    stream = DataLoader(Samples(make_synth, args.seed * 100003 + run.step), batch_size=args.batch, collate_fn=collate, **loader_options(args.workers))
    if args.init and run.step == 0:  # continue an exported reader of these classes (README: Carrying a model on)
        start_from_export(model, args.init, next(iter(stream))[0], ExportWrapper, args.seed)
    device = device_of(args.device)
    run.to(device)
    print(f"training on {device}, {args.workers} data workers", flush=True)
    loss_of = ctc_loss_of(model, device)

    def validate() -> tuple[float, dict]:
        exact = accuracy(model, x_val, t_val)
        report = {"synth": round(exact, 3)}
        if no_spaces:
            report["synth_no_spaces"] = round(accuracy(model, x_val, t_val, True), 3)
        for name, (x, t) in (also or {}).items():
            report[name] = round(accuracy(model, x, t, no_spaces), 3)
        return exact, report

    run.train(stream, loss_of, validate, clip=5.0, **schedule(args))


def arguments(doc: str | None, **defaults):
    ap = run_arguments(doc, **defaults)
    ap.add_argument("--init-plate", type=Path, help="a fresh run starts from this plate reader (../models/plate-reader.onnx)")
    ap.add_argument("--init", type=Path, help="a fresh run starts from this exported reader of the same classes (../models/stack-reader.onnx)")
    ap.add_argument("--wider-fonts", action="store_true", help="draw in idsynth.WIDER_FONTS too, faces neither bench generator uses")
    ap.add_argument("--further-fonts", action="store_true", help="draw in idsynth.FURTHER_FONTS too (implies --wider-fonts)")
    ap.add_argument("--relief", type=float, default=0.0, help="share of lines embossed or stamped into a pale plate, lit from any side (idsynth.IdentifierSynth)")
    ap.add_argument("--width", type=width_argument, default=1.0, help="every layer's channels times this (model.PlateReader); give it again to resume")
    args = ap.parse_args()
    if args.init and args.init_plate:
        ap.error("--init and --init-plate both say where to start: give one")
    if args.init_plate and args.width != 1:
        ap.error("--init-plate starts from the plate reader's own channels: --width 1 only")
    return args


def faces(args) -> list[str]:
    """The faces a run draws in: idsynth.IDENTIFIER_FONTS, with --wider-fonts idsynth.WIDER_FONTS
    too, and with --further-fonts both and idsynth.FURTHER_FONTS."""
    if not (args.wider_fonts or args.further_fonts):
        return IDENTIFIER_FONTS
    if not available(WIDER_FONTS):
        raise SystemExit("--wider-fonts: none of idsynth.WIDER_FONTS is installed (training/README.md, Setup)")
    if args.further_fonts and not available(FURTHER_FONTS):
        raise SystemExit("--further-fonts: none of idsynth.FURTHER_FONTS is installed (training/README.md, Setup)")
    return IDENTIFIER_FONTS + WIDER_FONTS + (FURTHER_FONTS if args.further_fonts else [])


def unseen_faces(make_set) -> dict[str, tuple[torch.Tensor, list[str]]]:
    """`make_set(fonts=...)`'s samples in idsynth.UNSEEN_FONTS, faces no run trains on, where installed."""
    return {"unseen_fonts": make_set(seed=54321, n=300, fonts=UNSEEN_FONTS)} if available(UNSEEN_FONTS) else {}


def main() -> None:
    # About 14 steps a minute on one thread beside a data worker (2026-11-28): the schedule ends in time.
    args = arguments(__doc__, run="runs/ids", minutes=100, steps=1400, batch=48, lr=1e-3, warmup=100, seed=31)
    # The same fixed lines whatever faces the run draws in.
    train(args, partial(IdentifierSynth, fonts=faces(args), relief=args.relief), validation_set(), frames=WIDTH // 4,
          what="lines", no_spaces=True, also=unseen_faces(validation_set))


if __name__ == "__main__":
    main()
