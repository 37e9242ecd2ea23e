"""Synthetic plates: layouts of US states, EU countries, Brazil (old grey and Mercosur), the UK,
Canada, Mexico and Australia, drawn with fonts from Debian packages, then photographed badly
(perspective, blur, noise, night, glare, JPEG).

US plates have the least real data and the most misreads, so they get the most variety: pale
pictorial backgrounds, a state name above the number, a slogan below, condensed fonts. Runs of
one repeated character (1111, AAA) are generated on purpose: random strings almost never hold
them, and a CTC reader that never saw one collapses them."""

from __future__ import annotations

import glob
import io
import os
import random
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"  # I and O are rare on plates; the fold maps them anyway
ALL_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGITS = "0123456789"
# Glyphs a small, blurred plate makes look alike (the held US misses are of this kind: F/E, 5/B,
# 8/B, W/M, 0/D). North American plates follow no one grammar, so nothing but the glyph tells them
# apart there: such strings get extra look-alikes, letters and digits mixed.
LOOK_ALIKES = ["8B", "B3E", "EF", "FP", "PR", "5S", "5B", "6G", "0D", "DQ", "UV", "WMH", "HN", "MN",
               "1T", "17", "1J", "2Z", "CG", "KX", "4A", "0U"]
GRAMMARLESS = {"us", "us-plain", "ca", "mx", "au", "dark"}

# Plate-like faces: DIN (the German plate font's family), narrow grotesques like US plate fonts.
FONT_GLOBS = [
    "/usr/share/fonts/truetype/opendin/*.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSansNarrow-Bold.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSansNarrow-Regular.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationMono-Bold.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Bold.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Medium.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Regular.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/Roboto-Bold.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoMono-Bold.ttf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Bold.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Regular.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSans-Bold.otf",
    "/usr/share/fonts/truetype/freefont/FreeSansBold.ttf",
    "/usr/share/fonts/opentype/b612/B612-Bold.otf",
    "/usr/share/fonts/opentype/b612/B612Mono-Bold.otf",
    "/usr/share/fonts/opentype/league-spartan/LeagueSpartan-Bold.otf",
    "/usr/share/fonts/truetype/open-sans/OpenSans-Bold.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansMono-Bold.ttf",
    "/usr/share/fonts/truetype/jura/Jura-DemiBold.ttf",
]
# More plate-like faces (train_reader --wider-fonts): condensed and bold grotesques from Debian
# packages FONT_GLOBS does not draw, so a reader learns glyph shapes rather than a few faces'.
# None is in idsynth.UNSEEN_FONTS, which stay unseen (tests/test_idsynth_fonts.py).
PLATE_WIDER_FONTS = [
    "/usr/share/fonts/opentype/bebas-neue/BebasNeue-Bold.otf",
    "/usr/share/fonts/opentype/bebas-neue/BebasNeue-Regular.otf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreheroscn-bold.otf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreheroscn-regular.otf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreheros-bold.otf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreadventor-bold.otf",
    "/usr/share/fonts/truetype/paratype/PTN77F.ttf",
    "/usr/share/fonts/truetype/paratype/PTN57F.ttf",
    "/usr/share/fonts/truetype/paratype/PTS75F.ttf",
    "/usr/share/fonts/truetype/lato/Lato-Black.ttf",
    "/usr/share/fonts/truetype/lato/Lato-Bold.ttf",
    "/usr/share/fonts/opentype/inter/Inter-Black.otf",
    "/usr/share/fonts/opentype/inter/Inter-Bold.otf",
    "/usr/share/fonts/truetype/crosextra/Carlito-Bold.ttf",
    "/usr/share/fonts/truetype/oxygen/Oxygen-Sans-Bold.ttf",
    "/usr/share/fonts/opentype/cabin/Cabin-Bold.otf",
    "/usr/share/fonts/opentype/cantarell/Cantarell-ExtraBold.otf",
    "/usr/share/fonts/fonts-go/Go-Bold.ttf",
    "/usr/share/fonts/truetype/3270/3270Condensed-Regular.ttf",
]
# Serif and script faces for legends only (state names, slogans).
LEGEND_GLOBS = FONT_GLOBS + [
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSerif-BoldItalic.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Oblique.ttf",
]


def available(globs: list[str]) -> list[str]:
    """The font files of `globs` on this machine (none is an error only where a generator needs them)."""
    # A machine without Debian's fonts reads them from a pack's folder (pack.py), by folder and name.
    packed = os.environ.get("VIGIL_FONTS")
    if packed:
        globs = [str(Path(packed) / Path(g).parent.name / Path(g).name) for g in globs]
    return sorted({p for g in globs for p in glob.glob(g)})


def _existing(globs: list[str]) -> list[str]:
    found = available(globs)
    if not found:
        raise SystemExit("no fonts found: apt-get install fonts-opendin fonts-liberation2 fonts-dejavu-extra "
                         "fonts-roboto-unhinted fonts-freefont-ttf fonts-urw-base35 fonts-b612 fonts-noto-core")
    return found


@dataclass(frozen=True)
class Layout:
    name: str
    weight: float
    formats: tuple[str, ...]  # L letter, D digit, X either; space and - are drawn, not read
    aspect: float  # plate width / height
    text_height: tuple[float, float]  # glyph height as a share of the plate's
    bg: str  # 'white', 'yellow', 'grey', 'pastel', 'dark', 'red', 'picture'
    band: str | None = None  # 'eu' blue band on the left, 'mercosur' blue strip on top
    legend: bool = False  # a state or city name above the number
    slogan: bool = False  # a line of small print below


US_FORMATS = ("DLLLDDD", "LLL DDDD", "LLL-DDDD", "DDD LLL", "LLL DDD", "LL DDDDD", "DLL DDD",
              "DDDDDD", "LLLDDD", "DLLLLDD", "LL LDDD", "DDD DDD", "LLDDDDL", "DDLLDD",
              "XXXXX", "XXXXXX", "XXXXXXX", "LDD LLL", "DDDLDD")
LAYOUTS = [
    Layout("us", 5.0, US_FORMATS, 2.0, (0.38, 0.55), "picture", legend=True, slogan=True),
    Layout("us-plain", 2.0, US_FORMATS, 2.0, (0.42, 0.6), "pastel", legend=True),
    Layout("eu", 2.0, ("LL LL DDDD", "LL-DDD-LL", "LL DDDLL", "DDDD LLL", "LL-DDD-L", "LL DDDDD",
                       "L DDDD LL", "LLL DDDD", "LL-DD-LLL", "LL DDDD LL", "DD-LLL-D"),
           4.7, (0.6, 0.75), "white", band="eu"),
    Layout("eu-yellow", 0.6, ("LL-DDD-L", "DD-LLL-D", "LL-DD-LL", "LLDD LLL"), 4.7, (0.6, 0.75), "yellow", band="eu"),
    Layout("br-old", 1.5, ("LLL-DDDD", "LLL DDDD"), 3.1, (0.5, 0.62), "grey", legend=True),
    Layout("br-red", 0.3, ("LLL-DDDD",), 3.1, (0.5, 0.62), "red", legend=True),
    Layout("br-mercosur", 1.2, ("LLLDLDD",), 3.1, (0.5, 0.6), "white", band="mercosur"),
    Layout("uk", 0.7, ("LLDD LLL",), 4.7, (0.6, 0.72), "white"),
    Layout("uk-rear", 0.5, ("LLDD LLL",), 4.7, (0.6, 0.72), "yellow"),
    Layout("ca", 0.7, ("LLLL DDD", "LLL DDD", "LLL-DDDD", "DLL DDD"), 2.0, (0.4, 0.55), "pastel", legend=True, slogan=True),
    Layout("mx", 0.5, ("LLL-DDD-L", "LLL-DD-DD", "LLL-DDDD"), 2.0, (0.4, 0.52), "picture", legend=True, slogan=True),
    Layout("au", 0.5, ("DLLDLL", "LLL DDD", "LLL-DDD", "DLL DDD"), 2.6, (0.45, 0.6), "pastel", legend=True, slogan=True),
    Layout("dark", 0.3, ("LLL DDDD", "LL DDDDD", "DDD LLL"), 2.4, (0.45, 0.6), "dark"),
]
LEGENDS = ["CALIFORNIA", "TEXAS", "NEW YORK", "FLORIDA", "ILLINOIS", "OHIO", "GEORGIA", "MICHIGAN",
           "ARIZONA", "NEVADA", "OREGON", "COLORADO", "VIRGINIA", "NEW JERSEY", "INDIANA", "KENTUCKY",
           "Pennsylvania", "Washington", "Massachusetts", "ONTARIO", "QUEBEC", "ALBERTA", "MEXICO",
           "JALISCO", "NSW", "VICTORIA", "QUEENSLAND", "SP-SAO PAULO", "RJ-RIO DE JANEIRO", "PR-CURITIBA",
           "MG-BELO HORIZONTE", "Sunshine State", "Lone Star State", "Empire State", "Great Lakes"]
SLOGANS = ["visitPA.com", "Sunshine State", "Land of Lincoln", "Great Faces. Great Places.",
           "Live Free or Die", "Yours to discover", "Je me souviens", "The Garden State", "dmv.ca.gov",
           "Pure Michigan", "Grand Canyon State", "FIRST IN FLIGHT", "In God We Trust", "SEP 25"]


class PlateSynth:
    def __init__(self, seed: int, fonts: list[str] | None = None):
        self.rng = random.Random(seed)
        self.np = np.random.default_rng(seed)
        self.fonts = _existing(fonts if fonts is not None else FONT_GLOBS)
        self.legend_fonts = _existing(LEGEND_GLOBS)
        self._cache: dict[tuple[str, int], ImageFont.FreeTypeFont] = {}

    # ---- text -------------------------------------------------------------------------
    def plate_text(self, layout: Layout) -> str:
        r = self.rng
        fmt = r.choice(layout.formats)
        out = []
        for f in fmt:
            if f == "L":
                out.append(r.choice(LETTERS if r.random() < 0.9 else ALL_LETTERS))
            elif f == "D":
                out.append(r.choice(DIGITS))
            elif f == "X":
                out.append(r.choice(LETTERS + DIGITS))
            else:
                out.append(f)
        text = "".join(out)
        if layout.name in GRAMMARLESS and r.random() < 0.3:
            text = self._with_look_alikes(text)
        if r.random() < 0.25:
            text = self._with_run(text)
        return text

    def _with_look_alikes(self, text: str) -> str:
        """One to three characters swapped for a look-alike of another character in the string,
        so both members of a pair turn up in the same plate and place."""
        chars = list(text)
        idx = [i for i, c in enumerate(chars) if c.isalnum()]
        for i in self.rng.sample(idx, min(len(idx), self.rng.randint(1, 3))):
            groups = [g for g in LOOK_ALIKES if chars[i] in g] or LOOK_ALIKES
            chars[i] = self.rng.choice(self.rng.choice(groups))
        return "".join(chars)

    def _with_run(self, text: str) -> str:
        """Replace a stretch of same-kind characters with one repeated character."""
        idx = [i for i, c in enumerate(text) if c.isalnum()]
        if len(idx) < 3:
            return text
        start = self.rng.randrange(len(idx) - 1)
        length = self.rng.randint(2, min(5, len(idx) - start))
        chars = list(text)
        first = chars[idx[start]]
        pool = DIGITS if first.isdigit() else LETTERS
        c = self.rng.choice(pool)
        for i in idx[start:start + length]:
            chars[i] = c if chars[i].isdigit() == c.isdigit() else chars[i]
        return "".join(chars)

    def font(self, path: str, size: int) -> ImageFont.FreeTypeFont:
        key = (path, size)
        if key not in self._cache:
            if len(self._cache) > 400:
                self._cache.clear()
            self._cache[key] = ImageFont.truetype(path, size)
        return self._cache[key]

    # ---- drawing ----------------------------------------------------------------------
    def _background(self, layout: Layout, w: int, h: int) -> tuple[Image.Image, tuple[int, int, int]]:
        r = self.rng
        ink: tuple[int, int, int] = (r.randint(0, 40), r.randint(0, 40), r.randint(0, 60))
        if layout.bg == "white":
            base = (r.randint(215, 255),) * 3
        elif layout.bg == "yellow":
            base = (r.randint(220, 255), r.randint(190, 230), r.randint(0, 60))
        elif layout.bg == "grey":
            v = r.randint(150, 215)
            base = (v, v, v + r.randint(-10, 10))
        elif layout.bg == "red":
            base = (r.randint(150, 220), r.randint(10, 50), r.randint(10, 50))
            ink = (r.randint(220, 255),) * 3
        elif layout.bg == "dark":
            base = (r.randint(0, 60), r.randint(0, 60), r.randint(0, 90))
            ink = (r.randint(200, 255), r.randint(200, 255), r.randint(150, 255))
        else:  # pastel or picture
            base = tuple(r.randint(185, 255) for _ in range(3))
            if r.random() < 0.5:
                ink = (r.randint(0, 40), r.randint(0, 60), r.randint(60, 140)) if r.random() < 0.5 else \
                      (r.randint(80, 150), r.randint(0, 30), r.randint(0, 30))
        img = Image.new("RGB", (w, h), base)
        d = ImageDraw.Draw(img)
        if layout.bg in ("pastel", "picture"):
            # A gradient sky, hills, a sun: pale shapes behind the number, as on pictorial plates.
            top = tuple(max(0, c - r.randint(0, 60)) for c in base)
            for y in range(h):
                t = y / h
                d.line([(0, y), (w, y)], fill=tuple(int(top[i] * (1 - t) + base[i] * t) for i in range(3)))
            shapes = r.randint(1, 6) if layout.bg == "picture" else r.randint(0, 2)
            for _ in range(shapes):
                col = tuple(r.randint(120, 255) for _ in range(3))
                x0, y0 = r.randint(-w // 4, w), r.randint(-h // 4, h)
                x1, y1 = x0 + r.randint(w // 8, w), y0 + r.randint(h // 8, h)
                if r.random() < 0.5:
                    d.ellipse([x0, y0, x1, y1], fill=col)
                else:
                    d.polygon([(x0, y1), ((x0 + x1) // 2, y0), (x1, y1)], fill=col)
        # Border and bolt holes.
        if r.random() < 0.7:
            d.rectangle([1, 1, w - 2, h - 2], outline=ink if r.random() < 0.5 else (90, 90, 90), width=r.randint(1, max(1, h // 25)))
        if r.random() < 0.4:
            for bx in (w * 0.2, w * 0.8):
                rad = h * 0.04
                d.ellipse([bx - rad, h * 0.1 - rad, bx + rad, h * 0.1 + rad], fill=(110, 110, 110))
        return img, ink

    def _draw_spaced(self, d: ImageDraw.ImageDraw, text: str, font, x: float, y: float, spacing: float, ink) -> None:
        for ch in text:
            if ch != " ":
                d.text((x, y), ch, font=font, fill=ink)
            x += font.getlength(ch) + spacing

    def render_plate(self, text: str, layout: Layout) -> tuple[np.ndarray, tuple[float, float, float, float]]:
        """Plate image (RGB) and the box of its number (x0, y0, x1, y1)."""
        r = self.rng
        h = 120
        w = int(h * layout.aspect * r.uniform(0.92, 1.08))
        img, ink = self._background(layout, w, h)
        d = ImageDraw.Draw(img)
        left = 0
        if layout.band == "eu":
            left = int(w * 0.085)
            d.rectangle([0, 0, left, h], fill=(r.randint(0, 30), r.randint(40, 80), r.randint(140, 200)))
            f = self.font(r.choice(self.fonts), int(h * 0.25))
            d.text((left * 0.2, h * 0.6), r.choice(["D", "F", "I", "NL", "PL", "E", "B", "RO", "CZ", "SK", "A"]), font=f, fill=(255, 255, 255))
        if layout.band == "mercosur":
            d.rectangle([0, 0, w, int(h * 0.22)], fill=(r.randint(0, 30), r.randint(40, 80), r.randint(140, 200)))
            f = self.font(r.choice(self.fonts), int(h * 0.15))
            d.text((w * 0.4, h * 0.03), "BRASIL", font=f, fill=(255, 255, 255))
        font_path = r.choice(self.fonts)
        glyph_h = r.uniform(*layout.text_height) * h
        # Size the font so capitals are glyph_h tall.
        probe = self.font(font_path, 100)
        cap = probe.getbbox("H")[3] - probe.getbbox("H")[1]
        size = max(8, int(100 * glyph_h / max(1, cap)))
        font = self.font(font_path, size)
        spacing = r.uniform(-0.02, 0.12) * size
        width = sum(font.getlength(c) + spacing for c in text) - spacing
        avail = (w - left) * 0.92
        squeeze = min(1.0, avail / max(1.0, width))
        # Draw the number on its own layer so it can be squeezed to the plate's width (condensed fonts).
        layer = Image.new("RGBA", (int(width) + 4, int(size * 1.4)), (0, 0, 0, 0))
        self._draw_spaced(ImageDraw.Draw(layer), text, font, 2, 0, spacing, ink + (255,))
        bbox = layer.getbbox() or (0, 0, layer.width, layer.height)
        layer = layer.crop(bbox)
        tw = max(1, int(layer.width * squeeze * r.uniform(0.8, 1.0)))
        layer = layer.resize((tw, layer.height), Image.BILINEAR)
        cx = left + (w - left) / 2 + r.uniform(-0.04, 0.04) * w
        top_band = 0.22 * h if layout.band == "mercosur" else 0
        cy = top_band + (h - top_band) / 2 + r.uniform(-0.06, 0.08) * h
        x0, y0 = int(cx - tw / 2), int(cy - layer.height / 2)
        img.paste(layer, (x0, y0), layer)
        box = (x0, y0, x0 + tw, y0 + layer.height)
        if layout.legend and r.random() < 0.85:
            lf = self.font(r.choice(self.legend_fonts), int(h * r.uniform(0.12, 0.2)))
            legend = r.choice(LEGENDS)
            lw = lf.getlength(legend)
            d.text(((w - lw) / 2, max(2, y0 - h * 0.24)), legend, font=lf, fill=ink if r.random() < 0.6 else tuple(r.randint(0, 160) for _ in range(3)))
        if layout.slogan and r.random() < 0.6:
            sf = self.font(r.choice(self.legend_fonts), int(h * r.uniform(0.08, 0.13)))
            slogan = r.choice(SLOGANS)
            d.text(((w - sf.getlength(slogan)) / 2, min(h - h * 0.14, box[3] + h * 0.04)), slogan, font=sf, fill=ink)
        if r.random() < 0.25:  # a registration sticker in a corner
            sx = r.choice([0.03, 0.82]) * w
            d.rectangle([sx, h * 0.05, sx + w * 0.13, h * 0.25], fill=tuple(r.randint(0, 255) for _ in range(3)))
        return np.asarray(img), box

    # ---- photographing ----------------------------------------------------------------
    def photograph(self, plate: np.ndarray, box, out_w: int, out_h: int) -> np.ndarray:
        """A crop as the pipeline would hand it over: anything from a tight box around the
        number to the whole plate with some car around it, seen in perspective."""
        r = self.rng
        ph, pw = plate.shape[:2]
        pad = int(ph * 0.6)
        car = np.empty((ph + 2 * pad, pw + 2 * pad, 3), np.uint8)
        car[:] = [r.randint(0, 255) for _ in range(3)]
        car = np.clip(car.astype(np.int16) + self.np.integers(-20, 20, car.shape[:2] + (1,)), 0, 255).astype(np.uint8)
        car[pad:pad + ph, pad:pad + pw] = plate
        bx0, by0, bx1, by1 = box[0] + pad, box[1] + pad, box[2] + pad, box[3] + pad
        if r.random() < 0.55:
            # Tight around the number, as the text detector boxes it (margins in line heights).
            lh = by1 - by0
            mx0, mx1 = r.uniform(-0.05, 0.35) * lh, r.uniform(-0.05, 0.35) * lh
            my0, my1 = r.uniform(-0.08, 0.25) * lh, r.uniform(-0.08, 0.25) * lh
            src = [bx0 - mx0, by0 - my0, bx1 + mx1, by1 + my1]
        else:
            # The whole plate, give or take a little.
            m = lambda: r.uniform(-0.04, 0.12)
            src = [pad - m() * pw, pad - m() * ph, pad + pw + m() * pw, pad + ph + m() * ph]
        quad = np.float32([[src[0], src[1]], [src[2], src[1]], [src[2], src[3]], [src[0], src[3]]])
        # Perspective and rotation: move each corner a little.
        qw, qh = src[2] - src[0], src[3] - src[1]
        jitter = r.uniform(0, 0.08)
        quad += self.np.uniform(-jitter, jitter, (4, 2)).astype(np.float32) * np.float32([qw * 0.3, qh])
        angle = np.deg2rad(r.gauss(0, 3))
        c = quad.mean(axis=0)
        rot = np.float32([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        quad = (quad - c) @ rot.T + c
        # Render small first when the plate is far away: resolution is what real crops lack.
        scale_h = int(r.choice([out_h, out_h, r.randint(12, out_h)]))
        scale_w = max(8, int(scale_h * out_w / out_h))
        dst = np.float32([[0, 0], [scale_w, 0], [scale_w, scale_h], [0, scale_h]])
        m = cv2.getPerspectiveTransform(quad, dst)
        img = cv2.warpPerspective(car, m, (scale_w, scale_h), flags=cv2.INTER_AREA if scale_h < out_h else cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
        img = self.degrade(img)
        return cv2.resize(img, (out_w, out_h), interpolation=cv2.INTER_LINEAR)

    def degrade(self, img: np.ndarray) -> np.ndarray:
        r = self.rng
        img = img.astype(np.float32)
        if r.random() < 0.3:  # glare: a bright blob
            h, w = img.shape[:2]
            yy, xx = np.mgrid[0:h, 0:w]
            cx, cy, s = r.uniform(0, w), r.uniform(0, h), r.uniform(0.1, 0.5) * w
            img += r.uniform(60, 200) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * s * s))[..., None]
        if r.random() < 0.25:  # night: dark, warm or infrared-grey
            img *= r.uniform(0.2, 0.5)
            if r.random() < 0.5:
                img = np.repeat(img.mean(axis=2, keepdims=True), 3, axis=2)
        img = img * r.uniform(0.6, 1.3) + r.uniform(-40, 40)
        if r.random() < 0.2:  # shadow across part of the plate
            x = r.randint(0, img.shape[1])
            img[:, :x] *= r.uniform(0.4, 0.8)
        img = np.clip(img, 0, 255).astype(np.uint8)
        if r.random() < 0.5:
            k = r.choice([3, 3, 5])
            img = cv2.GaussianBlur(img, (k, k), r.uniform(0.3, 1.5))
        if r.random() < 0.15:  # motion blur
            k = r.randint(3, 7)
            kernel = np.zeros((k, k), np.float32)
            kernel[k // 2, :] = 1 / k
            img = cv2.filter2D(img, -1, kernel)
        if r.random() < 0.5:
            img = np.clip(img + self.np.normal(0, r.uniform(2, 14), img.shape), 0, 255).astype(np.uint8)
        if r.random() < 0.6:
            ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, r.randint(15, 90)])
            img = cv2.imdecode(enc, cv2.IMREAD_COLOR)
        if r.random() < 0.1:
            img = np.repeat(cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)[..., None], 3, axis=2)
        return img

    def sample(self, out_w: int = 160, out_h: int = 48) -> tuple[np.ndarray, str]:
        layout = self.rng.choices(LAYOUTS, weights=[l.weight for l in LAYOUTS])[0]
        text = self.plate_text(layout)
        plate, box = self.render_plate(text, layout)
        return self.photograph(plate, box, out_w, out_h), text


if __name__ == "__main__":
    # Write a contact sheet of samples to look at: python3 -m vigil_train.synth out.png
    import sys
    s = PlateSynth(1)
    tiles = [s.sample() for _ in range(48)]
    rows = [np.hstack([t[0] for t in tiles[i:i + 6]]) for i in range(0, 48, 6)]
    sheet = np.vstack(rows)
    cv2.imwrite(sys.argv[1] if len(sys.argv) > 1 else "synth.png", cv2.cvtColor(sheet, cv2.COLOR_RGB2BGR))
    print("\n".join(" ".join(t[1] for t in tiles[i:i + 6]) for i in range(0, 48, 6)))
