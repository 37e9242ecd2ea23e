import type { RawImage } from './decode.js';

/** Writes `img` top-left into planar RGB slots of `rowWidth` x `rowCount` pixels at `offset`
 * (three planes, values in [0, 1]; a grey image fills all three): the input layout of Vigil's
 * own models. Pixels beyond the image are left as they are. */
export function writePlanarRgb(img: RawImage, out: Float32Array, offset: number, rowWidth: number, rowCount: number): void {
  const plane = rowWidth * rowCount;
  const { width: w, height: h, channels: ch, data } = img;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const from = (y * w + x) * ch;
      const to = offset + y * rowWidth + x;
      for (let c = 0; c < 3; c++) out[to + c * plane] = data[from + (ch === 3 ? c : 0)]! / 255;
    }
  }
}
