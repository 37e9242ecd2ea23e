import type { RawImage } from '../image/decode.js';

/** The brightest channel of each pixel (HSV value), in every channel. Plate characters are
 * dark on every channel; the coloured emblems US plates put between character groups (an
 * orange, a peach, a tree, a state shape) are bright in one of them, so here they fade into
 * the background and stop being read as a character. */
export function brightestChannel(image: RawImage): RawImage {
  const { data, width, height, channels } = image;
  if (channels < 3) return image;
  const out = Buffer.alloc(data.length);
  for (let i = 0; i < width * height * channels; i += channels) {
    const v = Math.max(data[i]!, data[i + 1]!, data[i + 2]!);
    out[i] = v;
    out[i + 1] = v;
    out[i + 2] = v;
  }
  return { data: out, width, height, channels };
}

/** Channel differences a grey picture may keep after an encoder's rounding. */
const GREY_SPREAD = 2;

/** Whether a picture shows colour: some pixel's channels differ by more than GREY_SPREAD levels.
 * A grey one (an infrared night shot, a monochrome camera) is, within those levels, its own
 * brightest channel. */
export function hasColour(image: RawImage): boolean {
  const { data, width, height, channels } = image;
  if (channels < 3) return false;
  for (let i = 0; i < width * height * channels; i += channels) {
    const r = data[i]!;
    const g = data[i + 1]!;
    const b = data[i + 2]!;
    if (Math.max(r, g, b) - Math.min(r, g, b) > GREY_SPREAD) return true;
  }
  return false;
}
