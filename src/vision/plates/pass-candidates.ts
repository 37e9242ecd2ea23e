import type { RawImage } from '../image/decode.js';
import { quadBounds } from '../image/quad.js';
import { candidatesToRead, type DetectedText } from './candidate-finder.js';
import { refineCandidate } from './candidate-refiner.js';
import { detectionView } from './detection-view.js';
import { extendToInk, growToCharacters } from './line-extension.js';
import { overlapRatio, unionBox } from '../image/box-overlap.js';
import type { DetectedPlate } from './plate-detector-model.js';
import type { PassSettings } from './plate-modes.js';
import type { PlateOcr } from './plate-pipeline.js';
import { lineHeight } from './reading-choice.js';
import type { Box, PlateCandidate, PlateReading, PlateReadOptions, Quad } from './plate.types.js';

/** Text lines the first pass saw shorter than this (detector pixels) get a close-up; taller
 * ones already have tight boxes, and a close-up of them cut characters off (plate crops). */
const REFINE_BELOW = 40;

/** A plate detector's box narrower than this many of its heights holds a squarish plate (North
 * American, Australian: about 2:1), with a state name above the number and a slogan below, which
 * the close-up can split the number from or cut a character off with (AU41257 read as U41257).
 * Its whole box is read as well, as the reader learned whole plates (plates-crops-us), and the
 * readings compete. European and Brazilian plates (3:1 to 4.7:1) are one long line the close-up
 * finds whole. Fit half of the scenes, 2026-11-27: fast mode read 2 more US plates of 65 (3 on
 * 1080p copies), regular mode and the other regions the same. */
const SQUARISH_PLATE = 2.6;

const squarish = (c: PlateCandidate) => {
  const b = quadBounds(c.lines.flat());
  return b.x1 - b.x0 < SQUARISH_PLATE * (b.y1 - b.y0);
};

/** A plate detector's box as a candidate: one "line" as large as the plate, which the close-up
 * (refineCandidate) replaces with the text lines it finds inside. */
function boxCandidate(p: DetectedPlate): PlateCandidate {
  const { xmin, ymin, xmax, ymax } = p.box;
  return { lines: [[{ x: xmin, y: ymin }, { x: xmax, y: ymin }, { x: xmax, y: ymax }, { x: xmin, y: ymax }]], dscore: p.score, wholePlate: true, plateAspect: (xmax - xmin) / Math.max(1, ymax - ymin) };
}

/** Where a pass's candidates come from: the text detector, or the plate detector's boxes in the
 * photo (found once per photo, best first). */
export interface CandidateSources {
  ocr: PlateOcr;
  detectedPlates?: readonly DetectedPlate[];
}

/** The plate detector's boxes away from sure plates, best first. */
function plateCandidates(found: readonly DetectedPlate[], pass: PassSettings, options: PlateReadOptions, sureAreas: readonly Box[]): PlateCandidate[] {
  return found.filter((p) => p.score >= options.thresholdD && sureAreas.every((a) => overlapRatio(p.box, a) <= 0.5))
    .slice(0, pass.candidates).map(boxCandidate);
}

/** The text detector's plate-like lines at the pass's resolution, and which of them want a
 * close-up; every line it saw goes to `seen`. */
async function textCandidates(image: RawImage, ocr: PlateOcr, pass: PassSettings, options: PlateReadOptions, sureAreas: readonly Box[], seen: DetectedText[]) {
  const view = await detectionView(image, pass.detSide, pass.maxUpscale, pass.detPixels);
  const found = await ocr.detect(view.image, { detLimitSide: pass.detSide, boxThreshold: pass.boxThreshold });
  const texts = found.map((t) => ({
    score: t.score,
    quad: t.quad.map((p) => ({ x: p.x * view.scaleX, y: p.y * view.scaleY })) as Quad,
  }));
  seen.push(...texts);
  const candidates = candidatesToRead(texts, {
    limit: pass.candidates, minScore: options.thresholdD, imageWidth: image.width, imageHeight: image.height,
    keepSmallPrint: options.mode === 'redaction', sureAreas,
  });
  // Only text the detector saw small has loose boxes worth a close-up.
  return { candidates, closeUp: (c: PlateCandidate) => lineHeight(c.lines) / Math.max(view.scaleX, view.scaleY) < REFINE_BELOW };
}

/** A pass's candidates, ready to read: found by the pass's source away from `sureAreas`, the
 * best `pass.refine` of them looked at again in a close-up where they want one, each line
 * extended to the ink beside it. */
export async function passCandidates(image: RawImage, pass: PassSettings, sources: CandidateSources, options: PlateReadOptions, sureAreas: readonly Box[], seen: DetectedText[]): Promise<PlateCandidate[]> {
  // A plate detector's box is a whole plate: its text lines come from a close-up, always.
  const { candidates, closeUp } = pass.source === 'plates'
    ? { candidates: plateCandidates(sources.detectedPlates ?? [], pass, options, sureAreas), closeUp: () => true }
    : await textCandidates(image, sources.ocr, pass, options, sureAreas, seen);
  const refined: PlateCandidate[] = [];
  for (const [i, c] of candidates.entries()) {
    const lines = i < pass.refine && closeUp(c) ? (await refineCandidate(image, c, sources.ocr, { wholeLine: pass.wholeLineCloseUps, plateText: pass.closeUpOnPlateText })).slice(0, 2) : [c];
    refined.push(...lines);
    if (pass.source === 'plates' && !lines.includes(c) && squarish(c)) refined.push(c);
  }
  return refined.map((c) => extendToInk(image, growToCharacters(image, c)));
}

/** Redaction's plates (see ModeSettings.unreadPlates): the plate detector's boxes at
 * `minScore` or more, each grown by `margin` and kept inside the photo, widen the read plates'
 * boxes they overlap (a number read in part still gets its whole plate hidden) and come back
 * unread (plate "") where they overlap none. */
export function withDetectedPlates(read: readonly PlateReading[], found: readonly DetectedPlate[], minScore: number, margin: { x: number; y: number }, image: { width: number; height: number }): PlateReading[] {
  const plates = read.map((p) => ({ ...p }));
  const unread: PlateReading[] = [];
  for (const p of found) {
    if (p.score < minScore) continue;
    const dx = (p.box.xmax - p.box.xmin) * margin.x;
    const dy = (p.box.ymax - p.box.ymin) * margin.y;
    const box = {
      xmin: Math.round(Math.max(0, p.box.xmin - dx)), ymin: Math.round(Math.max(0, p.box.ymin - dy)),
      xmax: Math.round(Math.min(image.width, p.box.xmax + dx)), ymax: Math.round(Math.min(image.height, p.box.ymax + dy)),
    };
    const reading = plates.find((r) => overlapRatio(p.box, r.box) > 0.3);
    if (reading) reading.box = unionBox(reading.box, box);
    else if (unread.every((u) => overlapRatio(p.box, u.box) <= 0.3)) {
      unread.push({ box, plate: '', region: { code: '', score: 0 }, score: 0, candidates: [], dscore: Math.round(p.score * 1000) / 1000, vehicle: undefined });
    }
  }
  return [...plates, ...unread];
}

