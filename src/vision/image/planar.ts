import type { RawImage } from './decode.js';

/** Each byte value as the model's input value, v / 255: the same numbers as dividing, looked up. */
const UNIT = Float32Array.from({ length: 256 }, (_, v) => v / 255);

/** Writes `img` top-left into planar RGB slots of `rowWidth` x `rowCount` pixels at `offset`
 * (three planes, values in [0, 1]; a grey image fills all three): the input layout of Vigil's
 * own models. Pixels beyond the image are left as they are. */
export function writePlanarRgb(img: RawImage, out: Float32Array, offset: number, rowWidth: number, rowCount: number): void {
  const plane = rowWidth * rowCount;
  const { width: w, height: h, channels: ch, data } = img;
  // A row at a time per plane: this runs on every detector input (a 640 x 384 photo) and crop.
  for (let y = 0; y < h; y++) {
    const row = offset + y * rowWidth;
    let from = y * w * ch;
    if (ch === 3) {
      for (let x = 0; x < w; x++, from += 3) {
        out[row + x] = UNIT[data[from]!]!;
        out[row + x + plane] = UNIT[data[from + 1]!]!;
        out[row + x + 2 * plane] = UNIT[data[from + 2]!]!;
      }
    } else {
      for (let x = 0; x < w; x++, from += ch) {
        const v = UNIT[data[from]!]!;
        out[row + x] = v;
        out[row + x + plane] = v;
        out[row + x + 2 * plane] = v;
      }
    }
  }
}
