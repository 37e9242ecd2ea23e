import type { RawImage } from '../image/decode.js';
import { resizeWithLibvips } from '../image/libvips-resize.js';
import { writePlanarRgb } from '../image/planar.js';
import { FloatBufferPool } from '../ocr/float-buffers.js';
import { resizeBilinear } from '../image/warp.js';
import { createOnnxSession, type OnnxSessionOptions, type OutputTensor, runOutputs, VIGIL_MODEL_FILES } from '../runtime/onnx-session.js';
import { decodeVehicles, VEHICLE_MAP_COUNT } from './detector-vehicles.js';
import type { Box } from './plate.types.js';
import type { FoundVehicle } from './vehicle-assignment.js';

/** Input of Vigil's plate detector (training/vigil_train/detector.py): the photo scaled so it
 * fits 640 x 384, placed top-left on grey (114), RGB in [0, 1]. The network is fully
 * convolutional: an upright photo gets the canvas turned (`fullCanvas`). */
export const DETECTOR_WIDTH = 640;
export const DETECTOR_HEIGHT = 384;
const STRIDE = 4;
const PAD = 114 / 255;

export interface DetectedPlate {
  /** Photo pixels. */
  box: Box;
  /** Heatmap peak, 0..1. */
  score: number;
}

/** One pass of the detector: its plates, surest first, and the vehicles its vehicle head finds
 * (none from a model without that head). */
export interface PlateDetection {
  plates: DetectedPlate[];
  vehicles: FoundVehicle[];
}

export interface PlateDetector {
  /** `zoom` (default 1): the share of the detector's input the photo fills; see CLOSE_UP_ZOOM.
   * `side` (default DETECTOR_WIDTH): the longer side of the input a whole photo is placed on
   * (see `fullCanvas`). `minScore` and `vehicleMinScore`: floors of a plate's and a vehicle's
   * peak (DETECTOR_FLOOR, VEHICLE_FLOOR). */
  detect(image: RawImage, options?: DetectOptions): Promise<PlateDetection>;
}

export interface DetectOptions { minScore?: number; vehicleMinScore?: number; zoom?: number; side?: number }

export interface PlateDetectorOptions extends Pick<OnnxSessionOptions, 'intraOpNumThreads' | 'memoryArena'> {
  /** Model file (default: models/plate-detector.onnx). */
  file?: string;
}

/** Default floor of a peak: the validation frames' best trade of found plates against wrong boxes. */
export const DETECTOR_FLOOR = 0.3;

/** Floor of a vehicle's score (detector-vehicles.ts): on the fit half of the dev scenes
 * (2026-11-28), the best trade of labeled plates on a vehicle against boxes where the COCO
 * detector sees none (bench:plates-vehicles --split fit --floors: 0.35 held 86 / 88 / 66% of
 * the us / eu / br plates with 0.5 / 1.1 / 0.8 such boxes a photo; 0.3 held 91 / 85 / 76% with
 * 1.1 / 1.7 / 1.5). */
export const VEHICLE_FLOOR = 0.35;

/** The detector learned plates as a dashcam or a car photo shows them, up to about a third of
 * its input wide: a plate that fills the photo (a close-up, a phone held to it) it finds only in
 * the photo shrunk to this share of its input (2026-11-28, 60 plates-crops-us fit crops
 * enlarged to 1920 px: 0 found as they are, 49 at a third, 60 at a quarter and at a sixth). */
export const CLOSE_UP_ZOOM = 0.25;

/** The detector's sides are multiples of this (its coarsest map is at stride 32). */
const SIDE_STEP = 32;

/** Grey beyond a zoomed photo (CLOSE_UP_ZOOM) on its shrunk canvas, in input pixels: the
 * canvas's own edge then lies where the detector's view of the photo's edge no longer reaches. */
const ZOOM_CANVAS_MARGIN = 64;

interface Canvas { width: number; height: number }

/** The canvas a whole photo is placed on: the training frames' 640 x 384, or as large as `side`
 * asks (960 x 576: a 1080p frame at half its size, where a plate 50-60 px wide is still a plate
 * to the detector; at a third it is a smudge), of the same shape; never larger than the photo
 * needs to be seen at its own size, nor smaller than 640 x 384. Turned for a photo taller than
 * wide (a phone held upright), which on 640 x 384 filled a third of the input and showed its
 * plate at 0.6 times the size, for the same detector cost. */
function fullCanvas(width: number, height: number, side = DETECTOR_WIDTH): Canvas {
  const fit = Math.ceil(Math.max(width, height) / SIDE_STEP) * SIDE_STEP;
  const long = Math.max(DETECTOR_WIDTH, Math.min(Math.round(side / SIDE_STEP) * SIDE_STEP, fit));
  const short = Math.round((long * DETECTOR_HEIGHT) / DETECTOR_WIDTH / SIDE_STEP) * SIDE_STEP;
  return height > width ? { width: short, height: long } : { width: long, height: short };
}

/** The canvas a photo of `width` x `height` input pixels is placed on, within `full`: all of it
 * for a photo that fills it, a smaller one around a zoomed photo (the close-up check's
 * quarter-size photo on the full canvas would be mostly grey, at full cost). */
function detectorCanvas(width: number, height: number, zoom: number, full: Canvas): Canvas {
  if (zoom >= 1) return full;
  const side = (content: number, limit: number) => Math.min(limit, Math.ceil((content + ZOOM_CANVAS_MARGIN) / SIDE_STEP) * SIDE_STEP);
  return { width: side(width, full.width), height: side(height, full.height) };
}

/** Each photo's picture at the detector's full-canvas size, kept while the photo lives: the
 * close-up check's zoomed look (CLOSE_UP_ZOOM) is shrunk from it rather than from the photo
 * again, which on a 1080p frame cost as much as the first shrink (about 4 ms). */
const fullSizeViews = new WeakMap<RawImage, RawImage>();

/** The photo as the detector's input (filling `zoom` of it, top left, on the canvas
 * `detectorCanvas` gives), and the scale from photo to input pixels. A photo shrunk by half or
 * more is shrunk by libvips (cubic), several times faster than in JavaScript on a 1080p photo;
 * its pixels differ from an area average by about one grey level. A zoomed look at a photo
 * already seen whole is shrunk from that view. `take` lends the buffer (FloatBufferPool); `side`
 * as in `fullCanvas`. */
export async function toDetectorInput(image: RawImage, zoom = 1, take: (n: number) => Float32Array = (n) => new Float32Array(n), side = DETECTOR_WIDTH): Promise<{ input: Float32Array; scale: number; canvas: Canvas }> {
  // CLOSE_UP_ZOOM is a share of the training frames' canvas, whatever side the whole look had.
  const full = fullCanvas(image.width, image.height, zoom < 1 ? DETECTOR_WIDTH : side);
  const scale = zoom * Math.min(full.width / image.width, full.height / image.height);
  const w = Math.max(1, Math.round(image.width * scale));
  const h = Math.max(1, Math.round(image.height * scale));
  const canvas = detectorCanvas(w, h, zoom, full);
  const input = take(3 * canvas.width * canvas.height).fill(PAD);
  const seen = zoom < 1 ? fullSizeViews.get(image) : undefined;
  const small = seen ? resizeBilinear(seen, w, h)
    : scale <= 0.5 ? await resizeWithLibvips(image, w, h, 'cubic') : resizeBilinear(image, w, h);
  if (zoom >= 1) fullSizeViews.set(image, small);
  writePlanarRgb(small, input, 0, canvas.width, canvas.height);
  return { input, scale, canvas };
}

/** CenterNet decoding: a cell is a plate where its heat is a 3x3 maximum (the model outputs the
 * pooled map beside the heat) and at least `minScore`; its box is the size and offset there. */
export function decodePlates(maps: Float32Array, rows: number, cols: number, scale: number, minScore: number): DetectedPlate[] {
  const plane = rows * cols;
  const out: DetectedPlate[] = [];
  for (let i = 0; i < plane; i++) {
    const heat = maps[i]!;
    if (heat < minScore || heat < maps[plane + i]!) continue;
    const y = Math.floor(i / cols);
    const x = i % cols;
    const w = Math.exp(maps[2 * plane + i]!);
    const h = Math.exp(maps[3 * plane + i]!);
    const cx = (x + maps[4 * plane + i]!) * STRIDE;
    const cy = (y + maps[5 * plane + i]!) * STRIDE;
    out.push({ score: heat, box: { xmin: (cx - w / 2) / scale, ymin: (cy - h / 2) / scale, xmax: (cx + w / 2) / scale, ymax: (cy + h / 2) / scale } });
  }
  return out.sort((a, b) => b.score - a.score);
}

/** Vigil's trained plate detector on the calling thread. */
export async function createPlateDetector(options: PlateDetectorOptions = {}): Promise<PlateDetector> {
  const session = await createOnnxSession(options.file ?? VIGIL_MODEL_FILES.plateDetector, { intraOpNumThreads: options.intraOpNumThreads, memoryArena: options.memoryArena });
  // Inputs are 3 MB: lent from run to run rather than left to the garbage collector.
  const inputs = new FloatBufferPool(2);
  return {
    async detect(image, opts = {}) {
      const { input, scale, canvas } = await toDetectorInput(image, opts.zoom, inputs.take, opts.side);
      let outputs: Awaited<ReturnType<typeof runOutputs>>;
      try {
        outputs = await runOutputs(session, input, [1, 3, canvas.height, canvas.width]);
      } finally {
        inputs.give(input);
      }
      const { data, dims } = outputs['maps'] ?? Object.values(outputs)[0]!;
      const [, maps, rows, cols] = dims as [number, number, number, number];
      if (maps !== 6) throw new Error(`plate detector model gives ${maps} maps, expected 6`);
      const clip = (b: Box): Box => ({
        xmin: Math.max(0, b.xmin), ymin: Math.max(0, b.ymin), xmax: Math.min(image.width, b.xmax), ymax: Math.min(image.height, b.ymax),
      });
      const plates = decodePlates(data, rows, cols, scale, opts.minScore ?? DETECTOR_FLOOR).map((p) => ({ ...p, box: clip(p.box) }));
      return { plates, vehicles: vehiclesOf(outputs['vehicles'], scale, image, opts.vehicleMinScore ?? VEHICLE_FLOOR) };
    },
  };
}

function vehiclesOf(output: OutputTensor | undefined, scale: number, image: RawImage, minScore: number): FoundVehicle[] {
  if (!output) return [];
  const [, maps, rows, cols] = output.dims as [number, number, number, number];
  if (maps !== VEHICLE_MAP_COUNT) throw new Error(`plate detector model gives ${maps} vehicle maps, expected ${VEHICLE_MAP_COUNT}`);
  return decodeVehicles(output.data, rows, cols, scale, minScore, image);
}
