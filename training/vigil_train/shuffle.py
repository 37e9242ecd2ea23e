"""Real plate crops with their characters put in another order.

There are about 250 real US plates to train on, so a reader can learn their strings rather than
their glyphs: the held US misses are single letters read as their look-alike (W/M, F/E, B/8) on
plates it reads otherwise. Cutting a real crop between its characters and putting the pieces
back in a random order gives a new string on the same real pixels: the plate's font, its
background, its blur and lighting, with no context that gives a character away.

Where the characters are comes from a reader (the exported model training starts from) aligned
with the crop's label: each character's CTC frames give its centre, and a crop is cut halfway
between neighbouring characters. A crop the reader does not read as its label is left whole.
"""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np

from .charset import CHARS

# The reader's output frames across its 160 px input (model.py); align reads the count off the
# network's output.
FRAMES = 40
# A piece narrower than this is an alignment that went wrong, not a character.
MIN_PIECE = 3


def character_segments(frame_classes: list[int]) -> list[tuple[int, int]]:
    """First and last frame of each emitted character, in reading order (CTC's greedy path)."""
    segments: list[tuple[int, int]] = []
    prev = 0
    for f, k in enumerate(frame_classes):
        if k != 0 and k == prev:
            segments[-1] = (segments[-1][0], f)
        elif k != 0:
            segments.append((f, f))
        prev = k
    return segments


def cut_points(segments: list[tuple[int, int]], width: int, frames: int = FRAMES) -> list[int] | None:
    """x positions that bound each character's piece: the first character's left edge, a cut
    halfway between each pair of neighbours, the last character's right edge (the outer edges as
    far from the centre as the inner cut is)."""
    if len(segments) < 2:
        return None
    px = width / frames
    centres = [(s + e + 1) / 2 * px for s, e in segments]
    inner = [((segments[k][1] + 1) + segments[k + 1][0]) / 2 * px for k in range(len(segments) - 1)]
    left = max(0.0, centres[0] - (inner[0] - centres[0]))
    right = min(float(width), centres[-1] + (centres[-1] - inner[-1]))
    cuts = [round(x) for x in [left, *inner, right]]
    if any(b - a < MIN_PIECE for a, b in zip(cuts, cuts[1:])):
        return None
    return cuts


def reorder(img: np.ndarray, text: str, cuts: list[int], order: list[int]) -> tuple[np.ndarray, str]:
    """The crop with character k's piece (cuts[k]..cuts[k+1]) moved to position order.index(k)."""
    pieces = [img[:, cuts[k]:cuts[k + 1]] for k in order]
    out = np.concatenate([img[:, :cuts[0]], *pieces, img[:, cuts[-1]:]], axis=1)
    return out, "".join(text[k] for k in order)


class CharacterShuffler:
    """Reorders the characters of real crops (see the module's doc). One per data worker: the
    aligning reader runs through OpenCV's DNN module, outside torch's threads."""

    def __init__(self, model: Path):
        self.net = cv2.dnn.readNetFromONNX(str(model))

    def align(self, img: np.ndarray, text: str) -> list[int] | None:
        """Cut points for a 48 x 160 RGB crop whose label is `text` (normalized), or None where
        the reader reads something else."""
        blob = img.astype(np.float32).transpose(2, 0, 1)[None] / 255.0
        self.net.setInput(blob)
        classes = self.net.forward()[0].argmax(-1).tolist()
        segments = character_segments(classes)
        # The greedy path's text: each segment's class (class k is CHARS[k - 1]).
        if "".join(CHARS[classes[s] - 1] for s, _ in segments) != text:
            return None
        return cut_points(segments, img.shape[1], len(classes))

    def shuffle(self, img: np.ndarray, text: str, rng: random.Random) -> tuple[np.ndarray, str] | None:
        cuts = self.align(img, text)
        if cuts is None:
            return None
        order = list(range(len(text)))
        while order == sorted(order):
            rng.shuffle(order)
        return reorder(img, text, cuts, order)
