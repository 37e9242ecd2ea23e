import { medianOf } from '../ocr/readers/char-spacing.js';
import type { RawImage } from './decode.js';

/** A box of pixels, its right and bottom ends excluded. */
export interface PixelBox { x0: number; y0: number; x1: number; y1: number }

/** Mean colour (three values) of the `ink` pixels of `photo` inside `box`; a grey picture gives
 * its grey level first and 0 for the other two. */
export function meanInkColour(photo: RawImage, ink: Uint8Array, box: PixelBox): number[] {
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = box.y0; y < box.y1; y++) for (let x = box.x0; x < box.x1; x++) {
    const i = y * photo.width + x;
    if (!ink[i]) continue;
    for (let c = 0; c < photo.channels; c++) sum[c]! += photo.data[i * photo.channels + c]!;
    n++;
  }
  return sum.map((v) => v / Math.max(1, n));
}

/** Channel by channel, the median of `colours`. */
export const medianColour = (colours: readonly number[][]): number[] => [0, 1, 2].map((c) => medianOf(colours.map((v) => v[c]!)));

/** Distance between two colours in RGB. */
export const colourDistance = (a: readonly number[], b: readonly number[]): number => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
