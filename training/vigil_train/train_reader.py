"""Train the plate reader; resumable, time-boxed, fixed seeds (see runs.py).

    /usr/bin/python3 -m vigil_train.train_reader --run runs/reader --minutes 100

Validation: Brazilian plates held out by text, a fifth of the US `fit` files (never trained on,
never a `held` file), and fixed synthetic plates.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, IterableDataset

from .charset import encode, greedy_decode, normalize
from .data import Crop, crop_pixels, load_crops
from .model import HEIGHT, WIDTH, ExportWrapper, PlateReader, ctc_loss_of, parameter_count, width_argument
from .runs import Run, device_of, loader_options, run_arguments, schedule, worker_seed
from .shuffle import CharacterShuffler
from .synth import FONT_GLOBS, PLATE_WIDER_FONTS, PlateSynth
from .widen import start_from_export
# Share of each real source among real samples: US material is the scarcest and the most misread;
# lines are real plates cut the way the pipeline cuts them (teacher_lines.py).
REAL_WEIGHTS = {"crops-us": 0.25, "scenes": 0.15, "crops-br": 0.15, "crops-eu": 0.15, "lines": 0.3}


def source_group(crop: Crop) -> str:
    for group in ("scenes", "lines"):
        if crop.source.startswith(group + "-"):
            return group
    return crop.source


class Mixture(IterableDataset):
    """An endless stream: synthetic plates and jittered real crops, half each."""

    def __init__(self, crops: list[Crop], seed: int, synth_share: float = 0.5,
                 shuffle_share: float = 0.0, aligner: Path | None = None, fonts: list[str] | None = None):
        self.groups: dict[str, list[Crop]] = {}
        for c in crops:
            self.groups.setdefault(source_group(c), []).append(c)
        self.seed = seed
        self.synth_share = synth_share
        # Share of real crops whose characters are reordered (shuffle.py), aligned by `aligner`.
        self.shuffle_share = shuffle_share
        self.aligner = aligner
        self.fonts = fonts  # the synthetic plates' faces (None: synth.FONT_GLOBS)

    def __iter__(self):
        seed = worker_seed(self.seed)
        rng = random.Random(seed)
        synth = PlateSynth(seed, self.fonts)
        shuffler = CharacterShuffler(self.aligner) if self.shuffle_share > 0 else None
        names = [g for g in REAL_WEIGHTS if g in self.groups]
        weights = [REAL_WEIGHTS[g] for g in names]
        while True:
            if rng.random() < self.synth_share or not names:
                img, text = synth.sample(WIDTH, HEIGHT)
            else:
                crop = rng.choice(self.groups[rng.choices(names, weights)[0]])
                img, text = crop_pixels(crop, rng, WIDTH, HEIGHT), crop.text
                if shuffler and rng.random() < self.shuffle_share:
                    img, text = shuffler.shuffle(img, text, rng) or (img, text)
                if rng.random() < 0.7:
                    img = synth.degrade(img)
            target = encode(text)
            if not target:
                continue
            yield torch.from_numpy(np.ascontiguousarray(img)).permute(2, 0, 1).float() / 255.0, target


def collate(batch):
    images = torch.stack([b[0] for b in batch])
    targets = torch.tensor([t for b in batch for t in b[1]], dtype=torch.long)
    lengths = torch.tensor([len(b[1]) for b in batch], dtype=torch.long)
    return images, targets, lengths


# The score that picks best.pt: US plates count twice, since they are what the product misreads most
# and the other two parts (Brazilian plates, synthetic ones) never stood in for them.
VALIDATION_WEIGHTS = {"us": 2.0, "br": 1.0, "synth": 1.0}


def synthetic_plates(count: int, seed: int, fonts: list[str] | None = None) -> tuple[list[np.ndarray], list[str]]:
    """`count` fixed synthetic plates and their normalized texts, in `fonts` (None: synth.FONT_GLOBS)."""
    synth = PlateSynth(seed, fonts)
    images, texts = [], []
    for _ in range(count):
        img, text = synth.sample(WIDTH, HEIGHT)
        images.append(img)
        texts.append(normalize(text))
    return images, texts


def as_batch(images: list[np.ndarray]) -> torch.Tensor:
    """HWC uint8 images as one NCHW float batch in [0, 1]."""
    return torch.from_numpy(np.stack(images)).permute(0, 3, 1, 2).float() / 255.0


def validation_set(crops: list[Crop], seed: int = 12345) -> dict[str, tuple[torch.Tensor, list[str]]]:
    """Per part: held-out Brazilian plates (by text), the US 'val' files (see load_crops), and 400
    fixed synthetic plates."""
    parts: dict[str, tuple[list[np.ndarray], list[str]]] = {"br": ([], []), "us": ([], [])}
    for c in crops:
        part = "br" if c.source == "crops-br" and c.side == "held" else "us" if c.side == "val" and c.source in ("crops-us", "scenes-us") else None
        if part:
            parts[part][0].append(crop_pixels(c, None, WIDTH, HEIGHT))
            parts[part][1].append(c.text)
    parts["synth"] = synthetic_plates(400, seed)
    return {name: (as_batch(images), texts) for name, (images, texts) in parts.items() if texts}


@torch.no_grad()
def accuracy(model: nn.Module, x: torch.Tensor, texts: list[str]) -> float:
    right = 0
    device = next(model.parameters()).device
    for i in range(0, len(texts), 128):
        pred = model(x[i:i + 128].to(device)).argmax(-1).cpu()
        right += sum(greedy_decode(p) == t for p, t in zip(pred.tolist(), texts[i:i + 128]))
    return right / max(1, len(texts))


def main() -> None:
    ap = run_arguments(__doc__, run="runs/reader", minutes=100, steps=5000, batch=64, lr=2e-3, warmup=400, seed=7)
    ap.add_argument("--synth-share", type=float, default=0.5, help="share of synthetic plates in each batch (the rest real crops)")
    ap.add_argument("--init", type=Path, help="a fresh run starts from this exported model (../models/plate-reader.onnx)")
    ap.add_argument("--no-us-validation", action="store_true",
                    help="train on the US validation fifth too (validation is then Brazilian and synthetic plates only): "
                         "a round from a model that trained on those files keeps them rather than forgetting them")
    ap.add_argument("--shuffle-share", type=float, default=0.0,
                    help="share of real crops trained with their characters reordered (shuffle.py), aligned by --init")
    ap.add_argument("--wider-fonts", action="store_true",
                    help="synthetic plates also in synth.PLATE_WIDER_FONTS (validation keeps synth.FONT_GLOBS)")
    ap.add_argument("--width", type=width_argument, default=1.0,
                    help="every layer's channels times this (model.PlateReader); --init widens a narrower reader; give it again to resume")
    args = ap.parse_args()
    if args.shuffle_share > 0 and not args.init:
        ap.error("--shuffle-share needs --init: the model that finds the characters to reorder (again on a resume)")

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    crops = load_crops(us_validation=not args.no_us_validation)
    fit = [c for c in crops if c.side == "fit"]
    counts: dict[str, int] = {}
    for c in fit:
        counts[c.source] = counts.get(c.source, 0) + 1
    print("training crops:", json.dumps(counts), flush=True)
    validation = validation_set(crops)
    print("validation:", json.dumps({name: len(texts) for name, (_, texts) in validation.items()}), flush=True)

    model = PlateReader(args.width)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    run = Run(Path(args.run), model, opt)
    print(f"parameters: {parameter_count(model)}", flush=True)
    # A fresh seed per resume, so a resumed run does not replay the stream it already saw.
    stream = DataLoader(Mixture(fit, args.seed * 100003 + run.step, args.synth_share,
                                        args.shuffle_share, args.init,
                                        FONT_GLOBS + PLATE_WIDER_FONTS if args.wider_fonts else None), batch_size=args.batch, collate_fn=collate,
                        **loader_options(args.workers))
    if args.init and run.step == 0:
        start_from_export(model, args.init, next(iter(stream))[0], ExportWrapper, args.seed)
    device = device_of(args.device)
    run.to(device)
    print(f"training on {device}, {args.workers} data workers", flush=True)
    loss_of = ctc_loss_of(model, device)

    def validate() -> tuple[float, dict]:
        report = {name: round(accuracy(model, x, texts), 3) for name, (x, texts) in validation.items()}
        weights = {name: VALIDATION_WEIGHTS[name] for name in report}
        score = sum(report[n] * w for n, w in weights.items()) / sum(weights.values())
        return score, {**report, "score": round(score, 3)}

    run.train(stream, loss_of, validate, clip=5.0, **schedule(args))


if __name__ == "__main__":
    main()
