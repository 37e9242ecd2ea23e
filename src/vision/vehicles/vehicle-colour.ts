import type { RawImage } from '../image/decode.js';
import type { Box } from './vehicle-types.js';

export const VEHICLE_COLOURS = ['black', 'blue', 'brown', 'green', 'red', 'silver', 'white', 'yellow', 'unknown'] as const;
export type VehicleColour = (typeof VEHICLE_COLOURS)[number];

/**
 * The body colour of a vehicle from its box: pixels of the inner part of the box (the outer 15%
 * sides and the bottom 25% are mostly background, road and tyres) are binned by HSV into the
 * nine names, and the three largest shares are returned. Glass and shadows fall into black,
 * which is why a dark share must clearly win before a car is called black. Hues that no name
 * covers (purple, pink) count as `unknown`. Which end faces the camera is told from the lamps
 * beside the plate (vehicle-orientation.ts).
 */
export function dominantColour(image: RawImage, box: Box): Array<{ color: VehicleColour; score: number }> {
  const w = box.xmax - box.xmin;
  const h = box.ymax - box.ymin;
  const x0 = clampInt(box.xmin + w * 0.15, 0, image.width);
  const x1 = clampInt(box.xmax - w * 0.15, 0, image.width);
  const y0 = clampInt(box.ymin + h * 0.1, 0, image.height);
  const y1 = clampInt(box.ymax - h * 0.25, 0, image.height);
  const gain = greyWorldGains(image);
  const counts = new Map<VehicleColour, number>();
  let total = 0;
  // Sample at most about 10k pixels: plenty for a histogram, cheap on 1080p boxes.
  const step = Math.max(1, Math.floor(Math.sqrt(((x1 - x0) * (y1 - y0)) / 10_000)));
  for (let y = y0; y < y1; y += step) {
    for (let x = x0; x < x1; x += step) {
      const i = (y * image.width + x) * image.channels;
      const r = image.data[i]!;
      const g = image.channels === 3 ? image.data[i + 1]! : r;
      const b = image.channels === 3 ? image.data[i + 2]! : r;
      const name = colourName(Math.min(255, r * gain[0]), Math.min(255, g * gain[1]), Math.min(255, b * gain[2]));
      counts.set(name, (counts.get(name) ?? 0) + 1);
      total++;
    }
  }
  if (total === 0) return [{ color: 'unknown', score: 0 }];
  // Glass and shade are dark whatever the paint: discount black so a coloured body still wins.
  if (counts.has('black')) counts.set('black', counts.get('black')! * 0.6);
  const sum = [...counts.values()].reduce((s, v) => s + v, 0);
  return [...counts.entries()]
    .map(([color, n]) => ({ color, score: Math.round((n / sum) * 1000) / 1000 }))
    .sort((a, b) => b.score - a.score)
    .slice(0, 3);
}

/** One pixel to a colour name by HSV; thresholds chosen for daylight camera images. */
export function colourName(r: number, g: number, b: number): VehicleColour {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const v = max / 255;
  const s = max === 0 ? 0 : (max - min) / max;
  if (v < 0.2) return 'black';
  // In shade a black car picks up sky blue; a dark pixel needs a wide channel spread to count
  // as a colour.
  if (v < 0.4 && max - min < 40) return 'black';
  if (v < 0.5 && s < 0.45) return 'black';
  if (s < 0.2 || max - min < 25) return v > 0.75 ? 'white' : v < 0.3 ? 'black' : 'silver';
  let hue: number;
  if (max === r) hue = (60 * ((g - b) / (max - min)) + 360) % 360;
  else if (max === g) hue = 60 * ((b - r) / (max - min)) + 120;
  else hue = 60 * ((r - g) / (max - min)) + 240;
  if (hue < 15 || hue >= 340) return 'red';
  if (hue < 45) return v < 0.65 || s < 0.5 ? 'brown' : 'yellow';
  if (hue < 70) return 'yellow';
  if (hue < 190) return 'green'; // teal counts as green
  if (hue < 260) return 'blue';
  return 'unknown';
}

/** Grey-world white balance over the whole frame: camera colour casts (blue shade, sodium
 * lamps) otherwise turn black and silver cars blue or brown. Gains are bounded so a frame that
 * really is mostly one colour is not over-corrected. */
export function greyWorldGains(image: RawImage): [number, number, number] {
  if (image.channels !== 3) return [1, 1, 1];
  const sums = [0, 0, 0];
  const n = image.width * image.height;
  const step = Math.max(1, Math.floor(n / 20_000));
  for (let p = 0; p < n; p += step) for (let c = 0; c < 3; c++) sums[c]! += image.data[p * 3 + c]!;
  const mean = (sums[0]! + sums[1]! + sums[2]!) / 3;
  const g = (c: number) => (sums[c]! > 0 ? Math.min(1.4, Math.max(0.7, mean / sums[c]!)) : 1);
  return [g(0), g(1), g(2)];
}

function clampInt(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.round(v)));
}
