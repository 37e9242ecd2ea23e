import type { RawImage } from '../image/decode.js';
import type { Box, PlateReading, PlateReadOptions, PlateReadResult } from '../../services/recognition/plate-reader.port.js';
import { findPlateCandidates, type DetectedText } from './candidate-finder.js';
import { refineCandidate } from './candidate-refiner.js';
import { detectionView } from './detection-view.js';
import { dedupePlates, dropSubordinateText, isOverlayText } from './plate-dedupe.js';
import { type CropRecognizer, rereadCandidates } from './plate-reread.js';
import { scoreReading } from './plate-scoring.js';
import type { PlateMode, Quad } from './plate.types.js';
import { assignVehicles, type VehicleFinder } from './vehicle-assignment.js';

/** What the pipeline needs from the OCR engine (src/vision/ocr `OcrEngine` satisfies it). */
export interface PlateOcr extends CropRecognizer {
  detect(image: RawImage, options?: { detLimitSide?: number; boxThreshold?: number; unclipRatio?: number }): Promise<DetectedText[]>;
}

interface ModeSettings {
  /** Longer side of the detector input. */
  detSide: number;
  /** Candidates re-read per image. */
  candidates: number;
  boxThreshold: number;
  /** Accepted plate lengths (alphanumerics). */
  minLength: number;
  maxLength: number;
  /** How many of the best candidates get a close-up detection before they are read. */
  refine: number;
}

const MODES: Record<PlateMode, ModeSettings> = {
  normal: { detSide: 960, candidates: 6, boxThreshold: 0.6, minLength: 4, maxLength: 8, refine: 3 },
  // One pass at a lower resolution, fewer re-reads; only the best candidate gets a close-up.
  fast: { detSide: 640, candidates: 3, boxThreshold: 0.6, minLength: 4, maxLength: 8, refine: 1 },
  // Recall first: a looser detector, more candidates, short plates kept.
  redaction: { detSide: 960, candidates: 16, boxThreshold: 0.45, minLength: 2, maxLength: 10, refine: 8 },
};

export const MAX_CANDIDATES_PER_PLATE = 10;

/** Text lines the first pass saw shorter than this (detector pixels) get a close-up; taller
 * ones already have tight boxes, and a close-up of them cut characters off (plate crops). */
const REFINE_BELOW = 40;

function textBounds(quads: readonly Quad[]): Box {
  const xs = quads.flatMap((q) => q.map((p) => p.x));
  const ys = quads.flatMap((q) => q.map((p) => p.y));
  return { xmin: Math.min(...xs), ymin: Math.min(...ys), xmax: Math.max(...xs), ymax: Math.max(...ys) };
}

/** The plate around its text: characters fill most of a plate's width and about half its
 * height (US plates less, EU plates more). */
function plateBox(text: Box, lineHeight: number, width: number, height: number): Box {
  const px = 0.08 * (text.xmax - text.xmin);
  const py = 0.45 * lineHeight;
  return {
    xmin: Math.max(0, Math.round(text.xmin - px)),
    ymin: Math.max(0, Math.round(text.ymin - py)),
    xmax: Math.min(width, Math.round(text.xmax + px)),
    ymax: Math.min(height, Math.round(text.ymax + py)),
  };
}

function lineHeight(quads: readonly Quad[]): number {
  const hs = quads.map((q) => Math.max(Math.hypot(q[3].x - q[0].x, q[3].y - q[0].y), Math.hypot(q[2].x - q[1].x, q[2].y - q[1].y)));
  return Math.max(...hs);
}

const round3 = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 1000) / 1000;

export interface PlatePipeline {
  read(image: RawImage, options: PlateReadOptions): Promise<PlateReadResult>;
}

/** Finds plate-like text regions, re-reads them with the plate charset and lets the region
 * grammars pick each reading. */
export function createPlatePipeline(ocr: PlateOcr, vehicleFinder?: VehicleFinder): PlatePipeline {
  return {
    async read(image, options) {
      const mode = MODES[options.mode] ?? MODES.normal;
      // Vehicles only when something asks for them (strict detection, make/model/colour).
      const vehicles = vehicleFinder && (options.strictDetection || options.mmc) ? vehicleFinder.detect(image) : undefined;
      // Awaited after the plates; marked handled now so a failure is not an unhandled rejection.
      vehicles?.catch(() => undefined);
      const view = await detectionView(image, mode.detSide);
      const found = await ocr.detect(view.image, { detLimitSide: mode.detSide, boxThreshold: mode.boxThreshold });
      const texts = found.map((t) => ({
        score: t.score,
        quad: t.quad.map((p) => ({ x: p.x * view.scaleX, y: p.y * view.scaleY })) as Quad,
      }));
      let candidates = findPlateCandidates(texts, image.height, mode.candidates).filter((c) => c.dscore >= options.thresholdD);
      if (mode.refine > 0) {
        const refined: typeof candidates = [];
        for (const [i, c] of candidates.entries()) {
          // Only text the first pass saw small has loose boxes worth a close-up.
          const seen = lineHeight(c.lines) / Math.max(view.scaleX, view.scaleY);
          refined.push(...(i < mode.refine && seen < REFINE_BELOW ? (await refineCandidate(image, c, ocr)).slice(0, 2) : [c]));
        }
        candidates = refined;
      }
      const readings = await rereadCandidates(image, candidates, ocr);
      const thresholdO = options.mode === 'redaction' ? Math.min(options.thresholdO, 0.3) : options.thresholdO;
      const plates: Array<PlateReading & { rank: number; lineHeight: number; textBox: Box }> = [];
      for (const { candidate, chars } of readings) {
        const ranked = scoreReading(chars, options).filter((s) => s.plate.length >= mode.minLength && s.plate.length <= mode.maxLength);
        const top = ranked[0];
        if (!top || top.score < thresholdO) continue;
        const textBox = textBounds(candidate.lines);
        if (isOverlayText(top.plate, textBox, image.height)) continue;
        const height = lineHeight(candidate.lines);
        const seen = new Set<string>();
        const list = ranked.filter((r) => !seen.has(r.plate) && seen.add(r.plate)).slice(0, MAX_CANDIDATES_PER_PLATE);
        plates.push({
          box: plateBox(textBox, height, image.width, image.height),
          textBox,
          lineHeight: height,
          plate: top.plate.toLowerCase(),
          region: { code: top.region.code, score: round3(top.region.score) },
          score: round3(top.score),
          candidates: list.map((r) => ({ plate: r.plate.toLowerCase(), score: round3(r.score) })),
          dscore: round3(candidate.dscore),
          vehicle: undefined,
          // Grammar-matching, plate-like readings first.
          rank: top.score * (0.5 + 0.5 * candidate.dscore) * (top.matched ? 1 : 0.8),
        });
      }
      plates.sort((a, b) => b.rank - a.rank);
      const kept = dropSubordinateText(dedupePlates(plates)).map(({ rank: _rank, lineHeight: _h, textBox: _t, ...p }) => p);
      return assignVehicles(image, kept, vehicles && (await vehicles), {
        strict: options.strictDetection,
        mmc: options.mmc,
        colour: vehicleFinder?.dominantColour?.bind(vehicleFinder),
      });
    },
  };
}
