import { expandChannels, type RawImage } from './decode.js';
import { toGray } from './warp.js';

/** Which ink a picture's text is in: the bands to fill are of the other shade. */
export type Ink = 'dark' | 'light';

/**
 * The picture in grey with thin horizontal bands across its strokes filled: a grey opening (dark
 * ink: light bands go) or closing (light ink: dark bands go) along the columns only, with a
 * window of `2 * radius + 1` rows, which fills bands up to `2 * radius` rows tall. A stencil's
 * bridges, a wire or a scratch across a number break every glyph into pieces that the text
 * detector no longer boxes as a line; along the columns only, the gaps between characters, which
 * run top to bottom, stay open.
 */
export function fillThinBands(image: RawImage, ink: Ink, radius: number): RawImage {
  const { width: w, height: h } = image;
  const gray = toGray(image);
  const darkInk = ink === 'dark';
  const filled = columnFilter(columnFilter(gray, w, h, radius, darkInk), w, h, radius, !darkInk);
  return expandChannels(Buffer.from(filled.buffer, filled.byteOffset, filled.length), w, h, 1, 3);
}

/** Each pixel the darkest (`darkest`) or lightest of the pixels within `radius` rows above and below it. */
function columnFilter(src: Uint8Array, w: number, h: number, radius: number, darkest: boolean): Uint8Array {
  const out = new Uint8Array(src.length);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - radius), y1 = Math.min(h - 1, y + radius);
    for (let x = 0; x < w; x++) {
      let v = src[y0 * w + x]!;
      for (let yy = y0 + 1; yy <= y1; yy++) {
        const u = src[yy * w + x]!;
        if (darkest ? u < v : u > v) v = u;
      }
      out[y * w + x] = v;
    }
  }
  return out;
}
