"""Synthetic stacks for the stack reader: trailer fleet numbers, container codes and random
alphanumerics painted top to bottom, one upright character under another, cut the way the OCR
engine cuts a detected column (some margin, a seam or rivets beside it), then photographed badly.

The reader sees a column turned a quarter counter-clockwise (its top at the left), so a stack
reads left to right as a line of characters lying on their side: no cutting into characters, and
the network, not a rule, decides where one ends. Surfaces, styles and the camera come from the
third generator (idsynth.py); like it, nothing here copies bench/lib's second generator, on which
the reader is quoted."""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image, ImageDraw

from .idsynth import DIGITS, LETTERS, STYLES, IdentifierSynth, fit_line

HEIGHT, WIDTH = 48, 256


class StackSynth(IdentifierSynth):
    def stack_text(self) -> str:
        r = self.rng
        pick = lambda pool, n: "".join(r.choice(pool) for _ in range(n))
        kind = r.choices(["trailer", "container", "digits", "random"], [0.45, 0.15, 0.2, 0.2])[0]
        if kind == "trailer":
            text = r.choice([pick(LETTERS, r.randint(1, 3)) + pick(DIGITS, r.randint(3, 5)), pick(DIGITS, 2) + pick(LETTERS, 1) + pick(DIGITS, 3)])
        elif kind == "container":
            # A whole code down a door post, or its parts in columns of their own.
            owner = pick(LETTERS, 3) + r.choice("UUUJZ")
            text = r.choice([owner + pick(DIGITS, 7), owner + pick(DIGITS, 7), owner, pick(DIGITS, 6), pick(DIGITS, 7), pick(DIGITS, 2) + r.choice("GRUPTK") + pick(DIGITS, 1)])
        elif kind == "digits":
            text = pick(DIGITS, r.randint(3, 7))
        else:
            text = pick(LETTERS + DIGITS, r.randint(2, 9))
        if r.random() < 0.2:
            text = self._look_alikes(text)
        if r.random() < 0.2:
            text = self._run(text)
        return text

    def _column_mask(self, text: str) -> tuple[np.ndarray, int]:
        """The stack's ink as a 0..1 mask (each character centred on one axis), and its cap height."""
        r = self.rng
        font = self.plates.font(r.choice(self.fonts), 64)
        cap = max(1, font.getbbox("H")[3] - font.getbbox("H")[1])
        step = cap * r.uniform(1.1, 1.7)
        wide = max(font.getlength(c) for c in text)
        w, h = int(wide + 64), int(step * len(text) + 64)
        layer = Image.new("L", (w, h), 0)
        d = ImageDraw.Draw(layer)
        top = font.getbbox("H")[1]
        for k, c in enumerate(text):
            dx = r.uniform(-0.04, 0.04) * cap
            d.text((w / 2 - font.getlength(c) / 2 + dx, 32 + k * step - top), c, font=font, fill=255)
        mask = np.asarray(layer, np.float32) / 255.0
        ys, xs = np.nonzero(mask > 0.1)
        return mask[max(0, ys.min() - 1):ys.max() + 2, max(0, xs.min() - 1):xs.max() + 2], cap

    def render_stack(self, text: str) -> np.ndarray:
        """The column as the engine cuts it: margins, and now and then a seam, rivets or dirt."""
        r = self.rng
        mask, cap = self._column_mask(text)
        mh, mw = mask.shape
        # The server reads a column lengthened by its width at both ends (the text box often
        # stops a character short): long, cluttered ends as often as tight ones.
        end = lambda: int(cap * (r.uniform(0.02, 0.5) if r.random() < 0.5 else r.uniform(0.5, 1.8)))
        top, bottom = end(), end()
        left, right = int(cap * r.uniform(0.05, 0.6)), int(cap * r.uniform(0.05, 0.6))
        h, w = mh + top + bottom, mw + left + right
        surface, ink = self._surface("trailer", w, h)
        full = np.zeros((h, w), np.float32)
        full[top:top + mh, left:left + mw] = mask
        style = r.choice(STYLES)
        if style == "stencil":  # bridges in every character, not across the whole column
            full, style = self._stencil_glyphs(full, cap), "plain"
        img = self._styled(full, surface, ink, style, cap)
        if r.random() < 0.25:  # a panel seam or bar beside the column
            x = r.choice([r.randint(0, max(1, left // 2)), w - 1 - r.randint(0, max(1, right // 2))])
            shade = r.uniform(0.2, 0.8)
            cv2.line(img, (x, 0), (x + r.randint(-3, 3), h), tuple(float(v) * shade for v in np.float32(ink)), max(1, int(cap * r.uniform(0.04, 0.12))))
        for _ in range(r.choice([0, 0, 1, 2])):  # a row of rivets across the column's end
            y = r.choice([r.randint(0, max(1, top)), h - 1 - r.randint(0, max(1, bottom))])
            for x in range(r.randint(0, 6), w, max(4, int(cap * 0.4))):
                cv2.circle(img, (x, y), max(1, int(cap * 0.06)), tuple(float(v) for v in np.float32(ink) * 0.4 + 100), -1)
        if r.random() < 0.2:  # the panel ends: another surface past one end
            y = r.choice([r.randint(0, max(1, top)), h - 1 - r.randint(0, max(1, bottom))])
            other, _ = self._surface("trailer", w, h)
            rows = slice(0, y) if y < h / 2 else slice(y, h)
            img[rows] = other[rows]
        if r.random() < 0.3:
            img = self._grime(img, cap // 2, cap // 3)
        img = np.clip(img, 0, 255).astype(np.uint8)
        return self._photograph_column(img)

    def _stencil_glyphs(self, mask: np.ndarray, cap: int) -> np.ndarray:
        """A stencil's bridges in each character of a column: the surface showing through one or
        two thin bands across the glyph, or a bar down its middle (where a stencil's O holds its
        centre); one kind for the whole column, as one stencil cut it."""
        r = self.rng
        rows = np.nonzero(mask.max(axis=1) > 0.1)[0]
        if len(rows) == 0:
            return mask
        # Each glyph's rows: runs of inked rows, characters standing apart.
        breaks = np.nonzero(np.diff(rows) > 1)[0]
        spans = zip(np.r_[rows[0], rows[breaks + 1]], np.r_[rows[breaks], rows[-1]] + 1)
        thick = max(1, int(cap * r.uniform(0.04, 0.1)))
        across = r.random() < 0.6
        places = r.sample([0.25, 0.35, 0.5, 0.62, 0.75], r.choice([1, 2]))
        out = mask.copy()
        for a, b in spans:
            if across:
                for t in places:
                    y = a + int((b - a) * (t + r.uniform(-0.04, 0.04)))
                    out[y:y + thick, :] = 0
            else:
                glyph = np.nonzero(mask[a:b].max(axis=0) > 0.1)[0]
                if len(glyph) == 0 or glyph.max() - glyph.min() < 0.45 * cap:
                    continue  # a 1 or an I: nothing round to hold
                x = int((glyph.min() + glyph.max()) / 2)
                out[a:b, x - thick // 2:x - thick // 2 + thick] = 0
        return out

    def _photograph_column(self, img: np.ndarray) -> np.ndarray:
        """Perspective and shear, a distance (characters 8 to 40 px tall) and a bad camera."""
        r = self.rng
        h, w = img.shape[:2]
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        j = r.uniform(0, 0.1)
        dst = src + self.np.uniform(-j, j, (4, 2)).astype(np.float32) * np.float32([w, w])
        shear = r.gauss(0, 0.08) * w
        dst[0, 1] += shear / 2
        dst[3, 1] += shear / 2
        dst[1, 1] -= shear / 2
        dst[2, 1] -= shear / 2
        dst -= dst.min(axis=0)
        out_w, out_h = int(dst[:, 0].max()) + 1, int(dst[:, 1].max()) + 1
        img = cv2.warpPerspective(img, cv2.getPerspectiveTransform(src, dst), (out_w, out_h), borderMode=cv2.BORDER_REPLICATE)
        target_w = r.choice([r.randint(10, 24), r.randint(14, 40), r.randint(20, 64)])
        scale = target_w / out_w
        img = cv2.resize(img, (target_w, max(4, int(out_h * scale))), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        return self.plates.degrade(img)

    def sample(self) -> tuple[np.ndarray, str]:
        text = self.stack_text()
        return fit_column(self.render_stack(text)), text


def fit_column(img: np.ndarray) -> np.ndarray:
    """An upright column crop to the reader's input, as src/vision/ocr/stack-reader.ts does: turned
    a quarter counter-clockwise, then fitted as a line (idsynth.fit_line) into WIDTH columns."""
    return fit_line(np.ascontiguousarray(np.rot90(img, 1)), WIDTH)


if __name__ == "__main__":
    # A contact sheet to look at: python3 -m vigil_train.stacksynth sheet.png
    import sys
    s = StackSynth(1)
    tiles = [s.sample() for _ in range(40)]
    sheet = np.vstack([np.hstack([t[0] for t in tiles[i:i + 2]]) for i in range(0, 40, 2)])
    cv2.imwrite(sys.argv[1] if len(sys.argv) > 1 else "stacks.png", cv2.cvtColor(sheet, cv2.COLOR_RGB2BGR))
    print("\n".join(f"{a[1]!r:24} {b[1]!r}" for a, b in zip(tiles[::2], tiles[1::2])))
