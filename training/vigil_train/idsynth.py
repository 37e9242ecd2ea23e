"""Synthetic identifier lines for the identifier reader: VINs, container codes, trailer fleet
numbers, hull numbers, odometer drums and random alphanumerics, each one text line cut the way
the OCR engine cuts a detected line (some margin, a neighbour's edge, a rivet), drawn in Debian's
fonts on painted, brushed, corrugated, rusty or dark surfaces, plain, stencilled, embossed,
stamped, outlined or in dots, then photographed badly.

This is a third generator, written apart from the two in bench/lib (issue 31's rule: the
identifier readers are quoted on bench/lib/ocr-synthetic-second.ts, which nothing here copies).
Unlike plate targets, O and I stay letters: an ISO 6346 owner code needs them."""

from __future__ import annotations

import math
import random

import cv2
import numpy as np
from PIL import Image, ImageDraw

from .synth import FONT_GLOBS, LOOK_ALIKES, PlateSynth, _existing

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGITS = "0123456789"
VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"  # ISO 3779: no I, O or Q
US_STATES = ["AL", "AK", "AZ", "CA", "CO", "CT", "FL", "GA", "HI", "ID", "IL", "IN", "LA", "MA", "MD", "ME", "MI", "MN",
             "MO", "NC", "NJ", "NY", "OH", "OR", "PA", "SC", "TN", "TX", "VA", "WA", "WI"]
CAPTIONS = ["VIN", "NO", "UNIT", "TRAILER", "FLEET", "ID", "REG", "CODE", "KM", "MILES"]
# Monospaced and engineering faces beside the plate faces: VIN plates and stickers use them.
EXTRA_FONTS = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf",
    "/usr/share/fonts/opentype/urw-base35/NimbusMonoPS-Bold.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusMonoPS-Regular.otf",
    "/usr/share/fonts/truetype/freefont/FreeMonoBold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
    "/usr/share/fonts/opentype/urw-base35/URWGothic-Demi.otf",
    "/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf",
]
# Faces neither bench generator draws (2026-12-04, `--wider-fonts`): the readers are measured on
# other people's lettering, and the more faces they learn, the less one face's quirks decide.
WIDER_FONTS = [
    "/usr/share/fonts/opentype/bebas-neue/BebasNeue-Bold.otf",
    "/usr/share/fonts/truetype/lato/Lato-Black.ttf",
    "/usr/share/fonts/truetype/lato/Lato-Bold.ttf",
    "/usr/share/fonts/truetype/firacode/FiraCode-Bold.ttf",
    "/usr/share/fonts/truetype/hack/Hack-Bold.ttf",
    "/usr/share/fonts/opentype/cantarell/Cantarell-ExtraBold.otf",
    "/usr/share/fonts/truetype/oxygen/Oxygen-Sans-Bold.ttf",
    "/usr/share/fonts/truetype/crosextra/Carlito-Bold.ttf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreheroscn-bold.otf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreadventor-bold.otf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyrecursor-bold.otf",
    "/usr/share/fonts/opentype/cabin/Cabin-Bold.otf",
    "/usr/share/fonts/truetype/jetbrains-mono/JetBrainsMono-ExtraBold.ttf",
    "/usr/share/fonts/opentype/inter/Inter-Black.otf",
    "/usr/share/fonts/fonts-go/Go-Bold.ttf",
    "/usr/share/fonts/fonts-go/Go-Mono-Bold.ttf",
    "/usr/share/fonts/truetype/anonymous-pro/Anonymous Pro B.ttf",
    "/usr/share/fonts/truetype/quicksand/Quicksand-Bold.ttf",
    "/usr/share/fonts/truetype/comfortaa/Comfortaa-Bold.ttf",
]
# More faces neither bench generator draws (2026-12-05, `--further-fonts`, beside the wider ones):
# OCR-A, IBM's 3270 terminal face, PT Sans Narrow, PT Sans and PT Mono, Agave, Monoid and
# Fantasque Sans Mono. Left out on purpose: Arimo and Cousine (Liberation Sans and Mono, which the
# second generator draws, come from them) and Noto Sans Mono (a Noto Sans).
FURTHER_FONTS = [
    "/usr/share/fonts/truetype/ocr-a/OCRA.ttf",
    "/usr/share/fonts/truetype/3270/3270-Regular.ttf",
    "/usr/share/fonts/truetype/3270/3270Condensed-Regular.ttf",
    "/usr/share/fonts/truetype/paratype/PTN77F.ttf",
    "/usr/share/fonts/truetype/paratype/PTS75F.ttf",
    "/usr/share/fonts/truetype/paratype/PTM55F.ttf",
    "/usr/share/fonts/truetype/agave/agave-b-autohinted.ttf",
    "/usr/share/fonts/truetype/monoid/Monoid-Bold.ttf",
    "/usr/share/fonts/opentype/fantasque-sans/Normal/OTF/FantasqueSansMono-Bold.otf",
]
# Faces no run trains on: lines drawn in them measure how a reader does on a face it never saw.
UNSEEN_FONTS = [
    "/usr/share/fonts/truetype/manrope/Manrope-ExtraBold.ttf",
    "/usr/share/fonts/truetype/mononoki/mononoki-Bold.ttf",
    "/usr/share/fonts/truetype/inconsolata/Inconsolata.otf",
    "/usr/share/fonts/truetype/andika/Andika-Bold.ttf",
    "/usr/share/fonts/truetype/hermit/Hermit-bold.otf",
]
# The faces every identifier run draws in: the plate faces and the monospaced ones above.
IDENTIFIER_FONTS = FONT_GLOBS + EXTRA_FONTS
STYLES = ["plain", "plain", "plain", "stencil", "embossed", "stamped", "outline", "dots"]
SURFACES = ["paint", "paint", "metal", "corrugated", "rust", "sticker", "dark", "hull"]

HEIGHT, WIDTH = 48, 384
PAD = 128  # the grey the server pads with: 0 after its (v / 127.5 - 1) scaling


class IdentifierSynth:
    def __init__(self, seed: int, fonts: list[str] | None = None, relief: float = 0.0):
        self.rng = random.Random(seed)
        # That share of the lines is embossed or stamped into a pale plate, lit from any side:
        # white on white, only the shadow side of each stroke shows (a VIN plate's 8 then
        # shows little more than a 3's right side). 0 draws exactly what it drew before.
        self.relief = relief
        self.np = np.random.default_rng(seed)
        self.fonts = _existing(fonts if fonts is not None else IDENTIFIER_FONTS)
        self.plates = PlateSynth(seed + 1)  # its degrade(): blur, noise, night, glare, JPEG

    # ---- strings ----------------------------------------------------------------------
    def text(self) -> tuple[str, str]:
        """An identifier and its kind; spaces are drawn as word gaps and read as spaces."""
        r = self.rng
        kind = r.choices(["vin", "container", "trailer", "hull", "odometer", "random"], [0.25, 0.15, 0.15, 0.1, 0.08, 0.27])[0]
        pick = lambda pool, n: "".join(r.choice(pool) for _ in range(n))
        if kind == "vin":
            text = pick(VIN_CHARS, 17)
            if r.random() < 0.12:
                text = r.choice(["VIN ", "VIN ", "NO "]) + text
        elif kind == "container":
            owner, serial, check = pick(LETTERS, 3) + r.choice("UUUJZ"), pick(DIGITS, 6), pick(DIGITS, 1)
            text = r.choice([f"{owner} {serial} {check}", f"{owner}{serial}{check}", f"{owner} {serial}{check}", f"{owner}{serial} {check}"])
        elif kind == "trailer":
            text = r.choice([pick(DIGITS, r.randint(3, 6)), pick(LETTERS, 1) + pick(DIGITS, r.randint(3, 5)),
                             pick(LETTERS, r.randint(2, 4)) + " " + pick(DIGITS, r.randint(3, 5)),
                             pick(LETTERS, r.randint(2, 3)) + pick(DIGITS, r.randint(3, 6)), pick(DIGITS, 2) + pick(LETTERS, 1) + pick(DIGITS, 3)])
        elif kind == "hull":
            text = r.choice([f"{r.choice(US_STATES)} {pick(DIGITS, 4)} {pick(LETTERS, 2)}", f"{r.choice(US_STATES)} {pick(DIGITS, 3)} {pick(LETTERS, 1)}",
                             f"{r.choice(US_STATES)}{pick(DIGITS, 4)}{pick(LETTERS, 2)}", f"{pick(DIGITS, 2)}{pick(LETTERS, 1)}{pick(DIGITS, 4)}",
                             f"C{pick(DIGITS, 5)}{r.choice(['BC', 'ON', 'QC', 'NS'])}"])
        elif kind == "odometer":
            text = pick(DIGITS, r.randint(4, 7))
        else:
            n = r.randint(2, 14)
            text = pick(LETTERS + DIGITS, n)
            if n > 5 and r.random() < 0.3:
                k = r.randint(2, n - 2)
                text = text[:k] + " " + text[k:]
        if r.random() < 0.2:
            text = self._look_alikes(text)
        if r.random() < 0.15:
            text = self._run(text)
        if kind not in ("vin", "odometer") and r.random() < 0.05:
            text = r.choice(CAPTIONS) + " " + text
        return text, kind

    def _look_alikes(self, text: str) -> str:
        chars = list(text)
        idx = [i for i, c in enumerate(chars) if c.isalnum()]
        for i in self.rng.sample(idx, min(len(idx), self.rng.randint(1, 2))):
            groups = [g for g in LOOK_ALIKES + ["0O", "1I", "0Q", "OQ"] if chars[i] in g]
            if groups:
                chars[i] = self.rng.choice(self.rng.choice(groups))
        return "".join(chars)

    def _run(self, text: str) -> str:
        """A stretch of one repeated character: CTC must see blanks between repeats."""
        idx = [i for i, c in enumerate(text) if c.isalnum()]
        if len(idx) < 3:
            return text
        start = self.rng.randrange(len(idx) - 1)
        chars, c = list(text), text[idx[start]]
        for i in idx[start:start + self.rng.randint(2, 5)]:
            chars[i] = c
        return "".join(chars)

    # ---- drawing ----------------------------------------------------------------------
    def _surface(self, kind: str, w: int, h: int) -> tuple[np.ndarray, tuple[int, int, int]]:
        """Background pixels (float RGB) and an ink colour that reads on them."""
        r, g = self.rng, self.np
        surface = "dark" if kind == "odometer" and r.random() < 0.7 else r.choice(SURFACES)
        if surface == "metal" or (kind == "vin" and r.random() < 0.4):
            v = r.uniform(150, 225)
            img = np.full((h, w, 3), v, np.float32) + g.normal(0, 1, (1, w, 1)).astype(np.float32).repeat(h, 0) * r.uniform(3, 12)
            img += np.linspace(-20, 20, w, dtype=np.float32)[None, :, None] * r.uniform(-1, 1)
            ink = (r.randint(0, 60),) * 3
        elif surface == "dark":
            img = np.full((h, w, 3), [r.uniform(0, 50) for _ in range(3)], np.float32)
            ink = (r.randint(190, 255), r.randint(190, 255), r.randint(150, 255))
        else:
            base = [r.uniform(30, 250) for _ in range(3)]
            img = np.full((h, w, 3), base, np.float32)
            if surface == "corrugated":  # vertical ribs: a periodic shading across the line
                period = r.uniform(0.3, 1.2) * h
                img += (np.sin(np.arange(w, dtype=np.float32) * 2 * np.pi / period) * r.uniform(10, 45))[None, :, None]
            elif surface == "rust":
                for _ in range(r.randint(2, 8)):
                    cx, cy, rad = r.uniform(0, w), r.uniform(0, h), r.uniform(0.2, 1.0) * h
                    yy, xx = np.ogrid[:h, :w]
                    blob = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rad * rad))[..., None]
                    img = img * (1 - 0.6 * blob) + np.float32([120, 60, 25]) * 0.6 * blob
            elif surface == "hull":
                img += np.linspace(-25, 25, h, dtype=np.float32)[:, None, None] * r.uniform(-1, 1)
            lum = 0.3 * base[0] + 0.59 * base[1] + 0.11 * base[2]
            ink = tuple(r.randint(0, 70) for _ in range(3)) if lum > 120 else tuple(r.randint(200, 255) for _ in range(3))
            if r.random() < 0.15:  # coloured ink: red, blue, green lettering
                ink = r.choice([(180, 20, 20), (20, 40, 160), (20, 110, 40), (230, 200, 30)])
        return img, ink

    def _glyph_mask(self, text: str, kind: str) -> tuple[np.ndarray, int]:
        """The line's ink as a 0..1 mask, and its cap height in pixels."""
        r = self.rng
        font_path = r.choice(self.fonts)
        size = 64
        font = self.plates.font(font_path, size)  # its cache of loaded faces
        cap = max(1, font.getbbox("H")[3] - font.getbbox("H")[1])
        spacing = r.uniform(-0.03, 0.25 if kind != "odometer" else 0.5) * cap
        relaid = r.random() < 0.08  # characters laid side by side from a stack, as the engine re-lays them
        if relaid:
            spacing = r.uniform(0.3, 0.7) * cap
        gap = max(font.getlength(" ") * r.uniform(1.2, 2.5), 0.6 * cap) + spacing
        widths = [gap if c == " " else font.getlength(c) + spacing for c in text]
        w, h = int(sum(widths) + size), int(size * 1.6)
        layer = Image.new("L", (w, h), 0)
        d = ImageDraw.Draw(layer)
        x = size * 0.5
        boxed = kind == "odometer" and r.random() < 0.5
        for c, cw in zip(text, widths):
            if c != " ":
                dy = r.uniform(-0.06, 0.06) * cap if relaid or kind == "odometer" else 0
                d.text((x, size * 0.25 + dy), c, font=font, fill=255)
                if boxed:  # drum windows: a frame around each digit
                    d.rectangle([x - spacing * 0.4, size * 0.12, x + cw - spacing * 0.6, size * 1.35], outline=160, width=2)
            x += cw
        if kind == "container" and r.random() < 0.3 and text[-2:-1] == " ":  # the check digit in a box
            x0 = x - widths[-1] - spacing * 0.3
            d.rectangle([x0, size * 0.15, x - spacing * 0.5, size * 1.3], outline=255, width=max(2, size // 16))
        mask = np.asarray(layer, np.float32) / 255.0
        ys, xs = np.nonzero(mask > 0.1)
        if len(xs) == 0:
            return mask, cap
        return mask[max(0, ys.min() - 1):ys.max() + 2, max(0, xs.min() - 1):xs.max() + 2], cap

    def _styled(self, mask: np.ndarray, surface: np.ndarray, ink, style: str, cap: int) -> np.ndarray:
        r = self.rng
        m = mask[..., None]
        inkf = np.float32(ink)
        if style == "stencil":
            cut = np.ones_like(mask)
            if r.random() < 0.5:  # horizontal bridges across the line
                for t in r.sample([0.3, 0.45, 0.6, 0.75], 2):
                    y = int(mask.shape[0] * t)
                    cut[y:y + max(1, int(cap * 0.06)), :] = 0
            else:  # vertical bridges every glyph width or so
                step = max(4, int(cap * r.uniform(0.35, 0.6)))
                for x in range(r.randrange(step), mask.shape[1], step):
                    cut[:, x:x + max(1, int(cap * 0.06))] = 0
            m = (mask * cut)[..., None]
            return surface * (1 - m) + inkf * m
        if style in ("embossed", "stamped"):
            d = max(1, int(cap * r.uniform(0.03, 0.07)))
            dy, dx = (d, d)
            if self.relief > 0:  # the light from any side, the relief shallow or deep
                angle = r.uniform(0, 2 * math.pi)
                dy, dx = round(d * math.sin(angle) * 1.4), round(d * math.cos(angle) * 1.4)
            light, dark = np.roll(mask, (-dy, -dx), (0, 1))[..., None], np.roll(mask, (dy, dx), (0, 1))[..., None]
            if style == "stamped":
                light, dark = dark, light
            relief = r.uniform(25, 110) if self.relief > 0 else r.uniform(60, 110)
            out = surface + relief * light - relief * dark
            if style == "stamped":
                out = out * (1 - 0.35 * m)
            return out
        if style == "outline":
            k = max(3, int(cap * 0.08) | 1)
            eroded = cv2.erode(mask, np.ones((k, k), np.uint8))
            ring = np.clip(mask - eroded, 0, 1)[..., None]
            return surface * (1 - ring) + inkf * ring
        if style == "dots":  # dot peen or dot matrix: ink only on a grid of dots
            step = max(3, int(cap * r.uniform(0.08, 0.14)))
            grid = np.zeros_like(mask)
            grid[::step, ::step] = 1
            dots = cv2.dilate(grid * (mask > 0.5), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(2, step - 1),) * 2))[..., None]
            return surface * (1 - dots) + inkf * dots
        if r.random() < 0.3:  # worn paint
            wear = (self.np.random(mask.shape) > r.uniform(0.05, 0.3)).astype(np.float32)
            m = (mask * cv2.GaussianBlur(wear, (5, 5), 1.5))[..., None]
        return surface * (1 - m) + inkf * m

    def render(self, text: str, kind: str) -> np.ndarray:
        """The line as the engine would cut it: the text with a margin, neighbours at the edges."""
        r = self.rng
        mask, cap = self._glyph_mask(text, kind)
        mh, mw = mask.shape
        top, bottom = int(mh * r.uniform(0.05, 0.45)), int(mh * r.uniform(0.05, 0.45))
        left, right = int(mh * r.uniform(0.05, 0.8)), int(mh * r.uniform(0.05, 0.8))
        h, w = mh + top + bottom, mw + left + right
        surface, ink = self._surface(kind, w, h)
        style = r.choice(STYLES)
        if self.relief > 0 and r.random() < self.relief:
            style = r.choice(["embossed", "stamped"])
            surface = np.full((h, w, 3), r.uniform(195, 250), np.float32) + self.np.normal(0, r.uniform(1, 4), (h, w, 1)).astype(np.float32)
        full = np.zeros((h, w), np.float32)
        full[top:top + mh, left:left + mw] = mask
        img = self._styled(full, surface, ink, style, cap)
        if r.random() < 0.2:  # a rivet or bolt beside the text
            cx = r.choice([left // 2, w - right // 2])
            cv2.circle(img, (int(cx), int(h * r.uniform(0.3, 0.7))), max(2, int(mh * 0.12)), tuple(float(v) for v in np.float32(ink) * 0.5 + 90), -1)
        if r.random() < 0.25:  # the edge of a neighbouring line or panel seam, cut by the box
            y = r.choice([r.randint(0, max(1, top // 2)), h - r.randint(1, max(2, bottom // 2 + 1))])
            cv2.line(img, (0, y), (w, y), tuple(float(v) for v in np.float32(ink)), max(1, int(mh * 0.06)))
        if r.random() < 0.3:  # dirt: translucent smudges, smaller than a glyph or two
            img = self._grime(img, mh // 2, mh // 4)
        img = np.clip(img, 0, 255).astype(np.uint8)
        return self._photograph(img)

    def _grime(self, img: np.ndarray, rx: int, ry: int) -> np.ndarray:
        """One to five translucent brown smudges, up to rx x ry pixels."""
        r = self.rng
        h, w = img.shape[:2]
        grime = img.copy()
        for _ in range(r.randint(1, 5)):
            cv2.ellipse(grime, (r.randint(0, w), r.randint(0, h)), (r.randint(2, max(3, rx)), r.randint(2, max(3, ry))),
                        r.uniform(0, 180), 0, 360, (r.uniform(50, 110), r.uniform(40, 90), r.uniform(30, 60)), -1)
        a = r.uniform(0.2, 0.6)
        return img * (1 - a) + grime * a

    def _photograph(self, img: np.ndarray) -> np.ndarray:
        """Perspective, shear and rotation, a distance (resolution) and a bad camera."""
        r = self.rng
        h, w = img.shape[:2]
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        j = r.uniform(0, 0.12)
        dst = src + self.np.uniform(-j, j, (4, 2)).astype(np.float32) * np.float32([h, h])
        shear = r.gauss(0, 0.12) * h
        dst[:2, 0] += shear / 2
        dst[2:, 0] -= shear / 2
        dst -= dst.min(axis=0)
        out_w, out_h = int(dst[:, 0].max()) + 1, int(dst[:, 1].max()) + 1
        img = cv2.warpPerspective(img, cv2.getPerspectiveTransform(src, dst), (out_w, out_h), borderMode=cv2.BORDER_REPLICATE)
        # Far away: the text is drawn small first, which is where real lines lose their detail.
        target_h = r.choice([HEIGHT, HEIGHT, r.randint(14, HEIGHT), r.randint(18, 32)])
        scale = target_h / out_h
        img = cv2.resize(img, (max(4, int(out_w * scale)), target_h), interpolation=cv2.INTER_AREA)
        return self.plates.degrade(img)

    def sample(self) -> tuple[np.ndarray, str]:
        """A HEIGHT x WIDTH crop: the line at height 48 keeping its aspect (squeezed where it is
        wider than WIDTH), left-aligned, padded with grey as the server pads it."""
        text, kind = self.text()
        return fit_line(self.render(text, kind)), text


def fit_line(img: np.ndarray, width: int = WIDTH) -> np.ndarray:
    """A line crop of any size to the reader's input, as src/vision/ocr/identifier-reader.ts does:
    height 48 at its aspect, squeezed where longer than `width`, left-aligned, padded grey."""
    h, w = img.shape[:2]
    tw = max(1, min(width, int(np.ceil(HEIGHT * w / max(1, h)))))
    out = np.full((HEIGHT, width, 3), PAD, np.uint8)
    out[:, :tw] = cv2.resize(img, (tw, HEIGHT), interpolation=cv2.INTER_LINEAR)
    return out


if __name__ == "__main__":
    # A contact sheet to look at: python3 -m vigil_train.idsynth sheet.png
    import sys
    s = IdentifierSynth(1)
    tiles = [s.sample() for _ in range(40)]
    sheet = np.vstack([np.hstack([t[0] for t in tiles[i:i + 2]]) for i in range(0, 40, 2)])
    cv2.imwrite(sys.argv[1] if len(sys.argv) > 1 else "ids.png", cv2.cvtColor(sheet, cv2.COLOR_RGB2BGR))
    print("\n".join(f"{a[1]!r:24} {b[1]!r}" for a, b in zip(tiles[::2], tiles[1::2])))
