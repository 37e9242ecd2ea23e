import type { RawImage } from '../image/decode.js';
import type { Box } from './vehicle-types.js';

export type VehicleOrientation = 'Front' | 'Rear' | 'Unknown';
export type OrientationScores = Array<{ orientation: VehicleOrientation; score: number }>;

/**
 * Which end of a vehicle faces the camera, told by its lamps beside the plate. A car's rear
 * carries red lamps on both sides of its plate, level with it or up to a few plate heights above;
 * its front carries white or amber ones. No orientation model ships offline, so this is image
 * processing with its limits stated: a red car's paint hides its lamps (Unknown), and a close-up
 * that shows too little of the car beside the plate tells nothing (Unknown).
 */

/** The band searched beside the plate, in plate widths from its centre and plate heights above
 * and below it. */
const BAND = { inner: 0.75, outer: 4, above: 4, below: 0.5 } as const;

/** A side whose band lies at least this much inside the photo can show lamps... */
const MIN_SEEN = 0.25;
/** ... and at least this much for their absence to mean anything. */
const MIN_SEEN_WHOLE = 0.6;
/** Lamp red covering this share of both sides' bands makes a rear... */
const REAR_BOTH = 0.004;
/** ... or this share of the one side seen, when the other is out of the photo. */
const REAR_ONE = 0.01;
/** Both sides under this share, both seen nearly whole: no tail lamp is there, the front faces us. */
const FRONT_MAX = 0.0025;
/** Scores: a rear 0.7 to 0.95 by how much lamp red its weaker side shows (on the labeled photos
 * 97% of rear answers were right), a front 0.75 (89%): see bench:plates-mmc. */
const FRONT_SCORE = 0.75;
/** Red over this share of the body above the plate: a red car, whose paint reads as lamps. */
const RED_BODY = 0.08;
/** Under this share of pixels with any colour in them beside the plate (channels more than
 * COLOURED_SPREAD levels apart), the photo is grey: an infrared night shot or a monochrome camera,
 * where no lamp shows red and no absence of red means a front. */
const MIN_COLOURED = 0.02;
const COLOURED_SPREAD = 24;

export interface SideEvidence {
  /** Share of lamp-red pixels in the part of the band inside the photo (and the vehicle). */
  red: number;
  /** Share of pixels there with any colour at all (see MIN_COLOURED). */
  coloured: number;
  /** Share of the band inside the photo. */
  seen: number;
}

export interface LampEvidence {
  left: SideEvidence;
  right: SideEvidence;
  /** Share of lamp-red pixels on the body just above the plate. */
  body: number;
  /** Whether a detected vehicle holds the plate: only then does an absence of tail lamps say
   * anything (a plate on a wall, or a scene the detector saw no car in, has none either). */
  onVehicle: boolean;
}

/** Saturated, reasonably bright red, the colour of tail lamps lit or not; amber indicators
 * (hue 12 degrees and up) and pink (below -15) do not count. */
export function isLampRed(r: number, g: number, b: number): boolean {
  if (r < 80 || r < g || r < b) return false;
  const min = Math.min(g, b);
  if (r - min < 0.45 * r) return false;
  const hue = (60 * (g - b)) / (r - min);
  return hue < 12 && hue > -15;
}

function clampBox(b: Box, limit: Box): Box {
  return {
    xmin: Math.max(b.xmin, limit.xmin),
    ymin: Math.max(b.ymin, limit.ymin),
    xmax: Math.min(b.xmax, limit.xmax),
    ymax: Math.min(b.ymax, limit.ymax),
  };
}

const areaOf = (b: Box) => Math.max(0, b.xmax - b.xmin) * Math.max(0, b.ymax - b.ymin);

/** Share of lamp-red pixels in `want` inside `within` (sampled on a grid of about 4000
 * points), and the share of `want` inside `frame`. */
function redShare(image: RawImage, want: Box, frame: Box, within: Box): SideEvidence {
  const wanted = areaOf(want);
  const seen = wanted > 0 ? areaOf(clampBox(want, frame)) / wanted : 0;
  const box = clampBox(want, within);
  const area = areaOf(box);
  if (area < 1) return { red: 0, coloured: 0, seen };
  const step = Math.max(1, Math.floor(Math.sqrt(area / 4000)));
  const ch = image.channels;
  let n = 0;
  let red = 0;
  let coloured = 0;
  for (let y = Math.ceil(box.ymin); y < box.ymax; y += step) {
    for (let x = Math.ceil(box.xmin); x < box.xmax; x += step) {
      const i = (y * image.width + x) * ch;
      n++;
      if (ch !== 3) continue;
      const [r, g, b] = [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!];
      if (Math.max(r, g, b) - Math.min(r, g, b) > COLOURED_SPREAD) coloured++;
      if (isLampRed(r, g, b)) red++;
    }
  }
  return n === 0 ? { red: 0, coloured: 0, seen } : { red: red / n, coloured: coloured / n, seen };
}

/** The red measured beside and above a plate (see BAND), inside the vehicle's box when one was
 * found (red beyond the car, a sign or another car's lamps, then does not count). */
export function lampEvidence(image: RawImage, plate: Box, vehicle?: Box): LampEvidence {
  const frame: Box = { xmin: 0, ymin: 0, xmax: image.width, ymax: image.height };
  const within = vehicle ? clampBox(vehicle, frame) : frame;
  const w = plate.xmax - plate.xmin;
  const h = plate.ymax - plate.ymin;
  const cx = (plate.xmin + plate.xmax) / 2;
  const ymin = plate.ymin - BAND.above * h;
  const ymax = plate.ymax + BAND.below * h;
  return {
    left: redShare(image, { xmin: cx - BAND.outer * w, xmax: cx - BAND.inner * w, ymin, ymax }, frame, within),
    right: redShare(image, { xmin: cx + BAND.inner * w, xmax: cx + BAND.outer * w, ymin, ymax }, frame, within),
    body: redShare(image, { xmin: cx - BAND.inner * w, xmax: cx + BAND.inner * w, ymin: plate.ymin - 3 * h, ymax: plate.ymin - 0.3 * h }, frame, within).red,
    onVehicle: vehicle !== undefined,
  };
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/** Front, Rear or Unknown from the lamp evidence, most likely first, as the API lists them. */
export function orientationFromLamps(e: LampEvidence): OrientationScores {
  const unknown: OrientationScores = [{ orientation: 'Unknown', score: 0 }];
  if (e.body > RED_BODY) return unknown;
  if (Math.max(e.left.coloured, e.right.coloured) < MIN_COLOURED) return unknown;
  const sides = [e.left, e.right];
  const seen = sides.filter((s) => s.seen >= MIN_SEEN);
  if (seen.length === 2) {
    const weaker = Math.min(e.left.red, e.right.red);
    if (weaker >= REAR_BOTH) {
      const score = round3(0.7 + 0.25 * Math.min(1, weaker / 0.02));
      return [{ orientation: 'Rear', score }, { orientation: 'Front', score: round3(1 - score) }];
    }
    const whole = sides.every((s) => s.seen >= MIN_SEEN_WHOLE);
    if (e.onVehicle && whole && Math.max(e.left.red, e.right.red) < FRONT_MAX) return [{ orientation: 'Front', score: FRONT_SCORE }, { orientation: 'Rear', score: round3(1 - FRONT_SCORE) }];
    return unknown;
  }
  if (seen.length === 1 && seen[0]!.red >= REAR_ONE) return [{ orientation: 'Rear', score: 0.7 }, { orientation: 'Front', score: 0.3 }];
  return unknown;
}

/** Orientation of the vehicle carrying `plate` (see orientationFromLamps). */
export function vehicleOrientation(image: RawImage, plate: Box, vehicle?: Box): OrientationScores {
  return orientationFromLamps(lampEvidence(image, plate, vehicle));
}
