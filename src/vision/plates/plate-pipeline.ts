import type { RawImage } from '../image/decode.js';
import { quadSize } from '../image/quad.js';
import { isVehicleBadge } from '../../domain/plates/vehicle-badges.js';
import type { Box, PlateReading, PlateReadOptions, PlateReadResult } from './plate.types.js';
import { candidatesToRead, type DetectedText, fillsPlateCrop } from './candidate-finder.js';
import { refineCandidate } from './candidate-refiner.js';
import { extendToInk } from './line-extension.js';
import { fadeColouredGlyphs, readThroughArtwork } from './coloured-glyphs.js';
import { doubtDisagreements } from './look-agreement.js';
import { detectionView } from './detection-view.js';
import { dedupePlates, dropSubordinateText, dropTruncatedReadings, isOverlayText, overlapRatio, spans } from './plate-dedupe.js';
import { type CandidateReading, CLOSE_UP_PAD_X, type CropRecognizer, rereadCandidates } from './plate-reread.js';
import { type CharOption, type ScoredPlate, scoreReading, topProb } from './plate-scoring.js';
import type { PlateCandidate, PlateMode, Quad } from './plate.types.js';
import type { PlateSearch } from './plate-search.js';
import { assignVehicles, type VehicleFinder } from './vehicle-assignment.js';
import type { DetectedPlate, PlateDetector } from './plate-detector-model.js';
import { dropTextAroundPlates, surroundings } from './plate-surroundings.js';
import { PLATE_MARGINS, plateBox, type PlateMargins, REDACTION_MARGINS, textBounds } from './plate-box.js';
import { wideCharacters } from './plate-font.js';
import { readLegendRegions } from './plate-legend.js';
import { bestRegionFit } from '../../domain/plates/region-fit.js';

/** What the pipeline needs from the OCR engine (src/vision/ocr `OcrEngine` satisfies it). */
export interface PlateOcr extends CropRecognizer {
  detect(image: RawImage, options?: { detLimitSide?: number; boxThreshold?: number; unclipRatio?: number }): Promise<DetectedText[]>;
}

export interface PassSettings {
  /** Where the pass's candidates come from: the text detector's lines (default), or the plate
   * detector's boxes (plate-detector-model.ts), each looked at in a close-up. */
  source?: 'text' | 'plates';
  /** Run only when no earlier pass read a sure plate: the text passes behind a plate pass are a
   * fallback for the plates its detector missed or its reading left unsure. */
  fallback?: boolean;
  /** Longer side of the detector input. */
  detSide: number;
  /** Most pixels of the detector input for photos it shrinks (default: `detSide` alone). */
  detPixels?: number;
  /** Small images (plate crops) are enlarged at most this much for the detector: more only
   * makes their large characters larger, at up to nine times the detector's cost. */
  maxUpscale: number;
  /** Candidates re-read per pass. */
  candidates: number;
  boxThreshold: number;
  /** How many of the best candidates get a close-up detection before they are read. */
  refine: number;
  /** A close-up that finds no text looks again for the whole line the candidate may be part of
   * (see RefineOptions.wholeLine): for a coarse pass with no finer one after it. */
  wholeLineCloseUps?: boolean;
}

interface ModeSettings {
  /** Detection passes, coarse to fine. A finer pass reads again what the coarser ones were
   * unsure of, and looks for plates too small for them (a photo may hold several cars). */
  passes: PassSettings[];
  /** The passes when the pipeline has a plate detector (PlatePipelineOptions.plateDetector);
   * default `passes`. */
  detectorPasses?: PassSettings[];
  /** Accepted plate lengths (alphanumerics). */
  minLength: number;
  maxLength: number;
  /** Margin around each text line before it is read, in line heights (left/right, top/bottom,
   * left/right of close-up lines: fast mode keeps the usual one, where the wider margin
   * tipped unsure leading Os of Brazilian plates to D and only one pass can make up for it). */
  readPadding: { x: number; y: number; closeUpX: number };
  /** A plate a pass read at this score or above (grammar-weighted: a specific region format
   * read with high confidence, or a generic one read with very high confidence) is not looked
   * at again: finer passes read only text away from it (see `surroundings`). */
  sureScore: number;
  /** Only lines whose first look fits a plate format get the second look (the brightest
   * channel), settled plate or not: it fades emblems inside plates, it does not turn a
   * slogan into one, and it was a third of fast mode's recogniser runs. */
  secondLookPlateLikeOnly?: boolean;
  /** The plate box around a number's text (see plate-box.ts). */
  plateMargins: PlateMargins;
  /** Read the legend around each plate (its state or province's name, see plate-legend.ts) to
   * name the region to the state: one more recogniser run per photo with a plate. */
  readLegends?: boolean;
  /** Which lines the second opinion (PlatePipelineOptions.secondOpinion) reads again:
   * `unsettled`, every line the reader left unsettled, the grammars choosing among all the
   * looks; `twin-ties`, only lines whose best readings tie on O/0 or I/1 (see twinTie), which
   * the reader cannot tell apart and the second opinion decides. Default: none. */
  secondOpinion?: 'unsettled' | 'twin-ties';
}

/** The 640 px pass sees at most 640 x 480 pixels: a square photo at 544 x 544 rather than
 * 640 x 640 (a third less detector time; 16:9 and 4:3 photos are unchanged). */
const COARSE_PIXELS = 640 * 480;

export const MODES: Record<PlateMode, ModeSettings> = {
  normal: {
    passes: [
      { detSide: 640, detPixels: COARSE_PIXELS, maxUpscale: 2, candidates: 4, boxThreshold: 0.6, refine: 2 },
      { detSide: 960, maxUpscale: 2, candidates: 6, boxThreshold: 0.6, refine: 3 },
    ],
    minLength: 4,
    maxLength: 8,
    readPadding: { x: 0.1, y: 0.05, closeUpX: CLOSE_UP_PAD_X },
    sureScore: 0.88,
    plateMargins: PLATE_MARGINS,
    readLegends: true,
    secondOpinion: 'unsettled',
    detectorPasses: [
      { source: 'plates', detSide: 640, maxUpscale: 2, candidates: 4, boxThreshold: 0.6, refine: 4 },
      { detSide: 640, detPixels: COARSE_PIXELS, maxUpscale: 2, candidates: 4, boxThreshold: 0.6, refine: 2, fallback: true },
      { detSide: 960, maxUpscale: 2, candidates: 6, boxThreshold: 0.6, refine: 3, fallback: true },
    ],
  },
  // One pass at a lower resolution, fewer re-reads; only the best candidate gets a close-up,
  // which looks for the whole line when the pass boxed a small plate in part.
  fast: {
    passes: [{ detSide: 640, detPixels: COARSE_PIXELS, maxUpscale: 2, candidates: 3, boxThreshold: 0.6, refine: 1, wholeLineCloseUps: true }],
    minLength: 4, maxLength: 8, readPadding: { x: 0.1, y: 0.05, closeUpX: 0.1 }, sureScore: 0.8,
    secondLookPlateLikeOnly: true,
    plateMargins: PLATE_MARGINS,
    secondOpinion: 'twin-ties',
    detectorPasses: [{ source: 'plates', detSide: 640, maxUpscale: 2, candidates: 3, boxThreshold: 0.6, refine: 3 }],
  },
  // Recall first: a looser detector, more candidates, short plates kept, every pass.
  redaction: { passes: [{ detSide: 960, maxUpscale: 3, candidates: 16, boxThreshold: 0.45, refine: 8 }], minLength: 2, maxLength: 10, readPadding: { x: 0.1, y: 0.05, closeUpX: CLOSE_UP_PAD_X }, sureScore: 0.8, plateMargins: REDACTION_MARGINS },
};


export const MAX_CANDIDATES_PER_PLATE = 10;

/** The number that fills a plate crop may be as short as this (low numbers, a serial beside a
 * county number or an emblem, as on Wyoming's plates); in a photo of a scene a line that short
 * is far more often a badge or a plate read in part, so there the mode's minimum stands. */
const CROP_MIN_LENGTH = 3;

/** The shortest reading a candidate may give: see CROP_MIN_LENGTH. */
function minPlateLength(modeMin: number, lineHeight: number, imageHeight: number): number {
  return fillsPlateCrop(lineHeight, imageHeight) ? Math.min(modeMin, CROP_MIN_LENGTH) : modeMin;
}

/** A finer pass that would show the detector the same picture as a coarser one (a small image,
 * a plate crop, enlarged to the same cap both times) looks at the image's own pixels instead:
 * at the cap, text that fills a crop is too large for the detector to box whole (a number's
 * last characters, one group of a split number go missing), at its own size it is not.
 * `scales` collects the enlargement of each pass so far. */
export function distinctView(pass: PassSettings, image: { width: number; height: number }, scales: number[]): PassSettings {
  const longer = Math.max(image.width, image.height);
  const scale = Math.min(pass.detSide / longer, pass.maxUpscale);
  const repeat = scales.some((s) => Math.abs(s - scale) < 1e-6);
  const own = repeat ? { ...pass, maxUpscale: 1 } : pass;
  scales.push(Math.min(own.detSide / longer, own.maxUpscale));
  return own;
}

/** Text lines the first pass saw shorter than this (detector pixels) get a close-up; taller
 * ones already have tight boxes, and a close-up of them cut characters off (plate crops). */
const REFINE_BELOW = 40;

/** A first look at least this sure of a grammar match is not read again with the brightest
 * channel (in every mode: fast mode's lower sure score would skip second looks that find plates). */
const SETTLED_SCORE = 0.88;
/** ... and only when no character of it is doubtful: an emblem between character groups (a
 * peach, a tree) reads as an extra C, I or 1 at about 0.6-0.85 and can still fit a grammar. */
const SETTLED_CHAR = 0.9;

/** Readings of the own-pixels look (see `distinctView`) that add to the earlier passes: text
 * where they read nothing of a like size (small print under a number does not count), or the
 * same text read with more characters. Elsewhere the earlier reading stands: the look exists to
 * box large text whole, not to re-read characters the earlier passes saw whole. */
export function completions<T extends { plate: string; textBox: Box; lineHeight: number }>(found: readonly T[], earlier: readonly T[]): T[] {
  return found.filter((p) => earlier.every((e) => overlapRatio(e.textBox, p.textBox) <= 0.5
    || e.lineHeight < 0.5 * p.lineHeight || (p.plate.length > e.plate.length && spans(p.textBox, e.textBox))));
}

/** Whether the latest pass's view (`scales`, see `distinctView`) is larger than every earlier one's. */
const finest = (scales: readonly number[]) => scales.slice(0, -1).every((s) => s < scales[scales.length - 1]!);

function lineHeight(quads: readonly Quad[]): number {
  return Math.max(...quads.map((q) => quadSize(q).height));
}

/** Scores this close count as a tie: the folded twins score alike up to the regions' weights. */
const TWIN_TIE = 0.02;

/** The region whose own format (not a generic shape) `plate` fits best, if any; `wide` as in
 * regionByFont. */
function specificRegion(plate: string, wide: boolean | undefined): string | undefined {
  const fit = bestRegionFit(plate, { regions: [], strict: false }, wide);
  return fit && fit.weight === 1 ? fit.code : undefined;
}

/** Two readings as likely as each other that differ only where a reader cannot tell O from 0 or
 * I from 1 (Vigil's trained reader folds them) and that the region formats, with the font the
 * line is drawn in (`wide`, see plate-font.ts), give to different regions: in a wide font
 * 0LB4809 is Czech, OLB4809 Brazilian. Only a reader that sees the difference (the second
 * opinion) can settle it. Twins of one region (a US ABC1234 and ABCI234) keep the grammar's
 * choice: asking would cost a recogniser run on most plates. */
export function twinTie(a: ScoredPlate, b: ScoredPlate, wide: boolean | undefined): boolean {
  if (a.plate.length !== b.plate.length || b.score < a.score - TWIN_TIE || a.plate === b.plate) return false;
  const fold = (t: string) => t.replace(/O/g, '0').replace(/I/g, '1');
  if (fold(a.plate) !== fold(b.plate)) return false;
  const [ra, rb] = [specificRegion(a.plate, wide), specificRegion(b.plate, wide)];
  return ra !== undefined && rb !== undefined && ra !== rb;
}

/** A top reading tied with its O/0-I/1 twin (see twinTie) is settled by `referee`, the second
 * opinion's ranking: the twin it scores higher goes first, at the top's score. */
export function breakTwinTies(ranked: ScoredPlate[], referee: readonly ScoredPlate[] | undefined, wide: boolean | undefined): ScoredPlate[] {
  const [top] = ranked;
  if (!top || !referee) return ranked;
  const refereeScore = (p: ScoredPlate) => referee.find((r) => r.plate === p.plate)?.score ?? 0;
  const twins = ranked.filter((r) => r !== top && twinTie(top, r, wide));
  const best = twins.reduce((b, r) => (refereeScore(r) > refereeScore(b) ? r : b), top);
  if (best === top) return ranked;
  return [{ ...best, score: top.score }, ...ranked.filter((r) => r !== best)];
}

/** Merges the rankings of several looks at one candidate: each plate keeps its best score. */
export function bestOfViews(rankings: readonly ScoredPlate[][]): ScoredPlate[] {
  const best = new Map<string, ScoredPlate>();
  for (const list of rankings) for (const s of list) {
    const known = best.get(s.plate);
    if (!known || s.score > known.score) best.set(s.plate, s);
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}

/** Whether a candidate's number of `length` characters is drawn in a wide font (plate-font.ts). */
function fontOf(candidate: PlateCandidate, length: number): boolean | undefined {
  return wideCharacters(textBounds(candidate.lines), lineHeight(candidate.lines), length);
}

/** Without a region hint, a seven-character number whose letters and digits fit several
 * regions' formats equally (ABC1234: Texas, New York, Brazil) is given to a region whose plates
 * draw characters as wide as these are (see plate-font.ts). Readings and scores are as the
 * grammars gave them. */
function regionByFont(top: ScoredPlate, textBox: Box, lineHeight: number, options: PlateReadOptions): string {
  const wide = wideCharacters(textBox, lineHeight, top.plate.length);
  if (options.regions.length > 0 || !top.matched || wide === undefined) return top.region.code;
  return bestRegionFit(top.plate, { regions: [], strict: false }, wide)?.code ?? top.region.code;
}

const round3 = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 1000) / 1000;

export interface PlatePipeline {
  read(image: RawImage, options: PlateReadOptions): Promise<PlateReadResult>;
}

/** Finds plate-like text regions, re-reads them with the plate charset and lets the region
 * grammars pick each reading. */
type RankedPlate = PlateReading & { rank: number; lineHeight: number; textBox: Box; matched: boolean; weakest: number };

export interface PlatePipelineOptions {
  /** Vehicle boxes for strict detection and mmc. */
  vehicles?: VehicleFinder;
  /** Whether regular mode looks for more plates after a sure one (default every-plate). */
  search?: PlateSearch;
  /** What reads the candidate lines: Vigil's trained plate reader (plate-text-model.ts), or,
   * by default, the OCR engine's general recogniser. Legends are read by the OCR engine either
   * way: they are words, not plate numbers. */
  reader?: CropRecognizer;
  /** In modes that ask for it, what reads again the lines `reader` did not settle (a different
   * model errs on different plates). Default: none. */
  secondOpinion?: CropRecognizer;
  /** Vigil's plate detector: modes with `detectorPasses` find candidates with it first. */
  plateDetector?: PlateDetector;
}

/** The plate detector learned plates in photos of scenes; a picture no longer than this (a plate
 * crop, a close-up) goes straight to the text detector's passes, which read crops better
 * (plates-crops-us, whose crops are at most 320 px wide; held half, 2026-11-27, trained reader
 * with PP-OCR's second opinion: 90.9% read from the detector's boxes, 95.5% from the text passes). */
const PLATE_PASS_MIN_SIDE = 400;

/** A plate detector's box as a candidate: one "line" as large as the plate, which the close-up
 * (refineCandidate) replaces with the text lines it finds inside. */
function boxCandidate(p: DetectedPlate): PlateCandidate {
  const { xmin, ymin, xmax, ymax } = p.box;
  return { lines: [[{ x: xmin, y: ymin }, { x: xmax, y: ymin }, { x: xmax, y: ymax }, { x: xmin, y: ymax }]], dscore: p.score };
}

export function createPlatePipeline(ocr: PlateOcr, pipelineOptions: PlatePipelineOptions = {}): PlatePipeline {
  const { vehicles: vehicleFinder, search = 'every-plate', reader = ocr, secondOpinion, plateDetector } = pipelineOptions;
  /** The plate detector's boxes away from sure plates, best first. */
  async function plateCandidates(image: RawImage, pass: PassSettings, options: PlateReadOptions, sureAreas: readonly Box[]): Promise<PlateCandidate[]> {
    const found = await plateDetector!.detect(image);
    return found.filter((p) => p.score >= options.thresholdD && sureAreas.every((a) => overlapRatio(p.box, a) <= 0.5))
      .slice(0, pass.candidates).map(boxCandidate);
  }
  /** The text detector's plate-like lines at the pass's resolution; every line it saw goes to `seen`. */
  async function textCandidates(image: RawImage, pass: PassSettings, options: PlateReadOptions, sureAreas: readonly Box[], seen: DetectedText[]) {
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
  /** One detection pass: plate-like text at `pass.detSide`, close-ups of small candidates,
   * every candidate re-read from full-resolution pixels and scored by the grammars. */
  async function readPass(image: RawImage, pass: PassSettings, mode: ModeSettings, options: PlateReadOptions, sureAreas: readonly Box[], seen: DetectedText[]): Promise<RankedPlate[]> {
    // A plate detector's box is a whole plate: its text lines come from a close-up, always.
    let { candidates, closeUp } = pass.source === 'plates'
      ? { candidates: await plateCandidates(image, pass, options, sureAreas), closeUp: () => true }
      : await textCandidates(image, pass, options, sureAreas, seen);
    if (pass.refine > 0) {
      const refined: typeof candidates = [];
      for (const [i, c] of candidates.entries()) {
        refined.push(...(i < pass.refine && closeUp(c) ? (await refineCandidate(image, c, ocr, { wholeLine: pass.wholeLineCloseUps })).slice(0, 2) : [c]));
      }
      candidates = refined;
    }
    candidates = candidates.map((c) => extendToInk(image, c));
    // Readings as short as a plate crop allows; each candidate's own minimum is applied below.
    const shortest = Math.min(mode.minLength, CROP_MIN_LENGTH);
    const score = (chars: CharOption[][]) => scoreReading(chars, options).filter((s) => s.plate.length >= shortest && s.plate.length <= mode.maxLength);
    // The brightest channel only for candidates the first look did not settle: a reading that
    // fits a region's grammar with a sure score would not change (a third fewer recogniser runs).
    const firstScores = new Map<CharOption[][], ScoredPlate[]>();
    const firstScore = (chars: CharOption[][]) => {
      let ranked = firstScores.get(chars);
      if (!ranked) firstScores.set(chars, (ranked = score(chars)));
      return ranked;
    };
    // Whether a line is settled or plate-like is judged on readings of the mode's plate length.
    const fullLength = (chars: CharOption[][]) => firstScore(chars).filter((r) => r.plate.length >= mode.minLength);
    const twinTied = (chars: CharOption[][], candidate: PlateCandidate | undefined) => {
      const [top, ...rest] = fullLength(chars);
      const wide = top && candidate && fontOf(candidate, top.plate.length);
      return !!top && rest.some((r) => twinTie(top, r, wide));
    };
    /** `candidate`, where known, lets an O/0 tie between regions unsettle the line. */
    const settled = (chars: CharOption[][], candidate?: PlateCandidate) => {
      const top = fullLength(chars)[0];
      return !!top?.matched && top.score >= SETTLED_SCORE && chars.every((c) => topProb(c) >= SETTLED_CHAR) && !twinTied(chars, candidate);
    };
    const secondLook = (chars: CharOption[][], candidate: PlateCandidate, all: readonly CharOption[][][]) => {
      if (settled(chars, candidate)) return false;
      // The brightest channel fades marks, it does not bring out characters: a line read with
      // fewer characters than the shortest plate (a sticker, a dealer's initials, a stray
      // stroke) stays too short. No such line gave a plate in the plate sets, and they took
      // a tenth of regular mode's recogniser runs on the US scenes. (Fast mode never read them
      // again: they fit no format.)
      if (chars.length < mode.minLength) return false;
      // A line that fits no plate format at all (a dealer's name, a slogan) is not worth a
      // second look once another line reads as a settled plate, nor ever in fast mode: that
      // look fades an emblem inside a plate, it does not turn other text into one. Plate-like
      // lines still get it: a photo may hold a second plate.
      const plateLike = fullLength(chars).some((r) => r.matched);
      return plateLike || (!mode.secondLookPlateLikeOnly && !all.some((o) => o !== chars && settled(o)));
    };
    const readings = await rereadCandidates(image, candidates, reader, { padding: mode.readPadding, secondLook });
    // Each reader's looks, per candidate: the look rules below compare looks of one reader.
    const opinions = readings.map((r) => [r.views]);
    if (secondOpinion && mode.secondOpinion) {
      const ask = mode.secondOpinion === 'unsettled'
        ? (r: CandidateReading) => !r.views.some((v) => settled(v, r.candidate))
        : (r: CandidateReading) => twinTied(r.views[0] ?? [], r.candidate);
      const unsure = readings.flatMap((r, i) => (ask(r) ? [i] : []));
      const again = unsure.length ? await rereadCandidates(image, unsure.map((i) => candidates[i]!), secondOpinion, { padding: mode.readPadding, secondLook }) : [];
      again.forEach((r, k) => opinions[unsure[k]!]!.push(r.views));
    }
    const thresholdO = options.mode === 'redaction' ? Math.min(options.thresholdO, 0.3) : options.thresholdO;
    const plates: RankedPlate[] = [];
    for (const [i, { candidate }] of readings.entries()) {
      const rankings = opinions[i]!.map((views) => doubtDisagreements(readThroughArtwork(fadeColouredGlyphs(views)))
        .map((chars) => firstScores.get(chars) ?? score(chars)));
      const height = lineHeight(candidate.lines);
      const minLength = minPlateLength(mode.minLength, height, image.height);
      const second = rankings.length > 1 ? bestOfViews(rankings.slice(1).flat()) : undefined;
      const merged = bestOfViews(rankings.flat());
      const ranked = breakTwinTies(merged, second, merged[0] && fontOf(candidate, merged[0].plate.length)).filter((r) => r.plate.length >= minLength);
      const top = ranked[0];
      if (!top || top.score < thresholdO) continue;
      // In a photo of a scene, a reading that fits no region's format (four characters: every
      // longer one fits a generic shape) is a sign's word or a building's number (EXIT, ONLY,
      // 1056); a plate crop's short number stays, and redaction keeps everything.
      if (!top.matched && options.mode !== 'redaction' && !fillsPlateCrop(height, image.height)) continue;
      const textBox = textBounds(candidate.lines);
      // A make's badge is text, not a plate (see vehicle-badges.ts): the line is no plate at all.
      if (isOverlayText(top.plate, textBox, image.height) || isVehicleBadge(top.plate)) continue;
      const seen = new Set<string>();
      const list = ranked.filter((r) => !seen.has(r.plate) && seen.add(r.plate)).slice(0, MAX_CANDIDATES_PER_PLATE);
      plates.push({
        box: plateBox(textBox, height, image, mode.plateMargins),
        textBox,
        lineHeight: height,
        matched: top.matched,
        weakest: top.weakest,
        plate: top.plate.toLowerCase(),
        region: { code: regionByFont(top, textBox, height, options), score: round3(top.region.score) },
        score: round3(top.score),
        candidates: list.map((r) => ({ plate: r.plate.toLowerCase(), score: round3(r.score) })),
        dscore: round3(candidate.dscore),
        vehicle: undefined,
        // Grammar-matching, plate-like readings first.
        rank: top.score * (0.5 + 0.5 * candidate.dscore) * (top.matched ? 1 : 0.8),
      });
    }
    return plates;
  }

  return {
    async read(image, options) {
      const mode = MODES[options.mode] ?? MODES.normal;
      const scene = Math.max(image.width, image.height) >= PLATE_PASS_MIN_SIDE;
      const passes = (plateDetector && scene && mode.detectorPasses) || mode.passes;
      // Vehicles only when something asks for them (strict detection, make/model/colour).
      const vehicles = vehicleFinder && (options.strictDetection || options.mmc) ? vehicleFinder.detect(image) : undefined;
      // Awaited after the plates; marked handled now so a failure is not an unhandled rejection.
      vehicles?.catch(() => undefined);
      const plates: RankedPlate[] = [];
      const scales: number[] = [];
      // Every line the passes detected, in photo pixels: legends are looked for among them.
      const seen: DetectedText[] = [];
      for (const pass of passes) {
        const sure = plates.filter((p) => p.score >= mode.sureScore);
        if (pass.fallback && sure.length > 0) break;
        if (pass.source === 'plates') {
          plates.push(...(await readPass(image, pass, mode, options, [], seen)));
          continue;
        }
        const view = distinctView(pass, image, scales);
        // Beside a sure plate a finer pass looks for smaller ones, which a view no larger than
        // the earlier ones (a plate crop's own pixels) would not show.
        if (sure.length > 0 && (search === 'first-sure' || !finest(scales))) break;
        const found = await readPass(image, view, mode, options, sure.map(surroundings), seen);
        plates.push(...(view === pass ? found : completions(found, plates)));
      }
      plates.sort((a, b) => b.rank - a.rank);
      const deduped = dedupePlates(dropTruncatedReadings(dropSubordinateText(dropTextAroundPlates(plates, mode.sureScore))));
      if (mode.readLegends && deduped.length > 0) {
        const legends = await readLegendRegions(image, deduped, seen, ocr, options.regions.map((r) => r.toLowerCase()));
        legends.forEach((code, i) => {
          if (code) deduped[i]!.region = { ...deduped[i]!.region, code };
        });
      }
      const kept = deduped.map(({ rank: _rank, lineHeight: _h, textBox: _t, matched: _m, weakest: _w, ...p }) => p);
      return assignVehicles(image, kept, vehicles && (await vehicles), {
        strict: options.strictDetection,
        mmc: options.mmc,
        colour: vehicleFinder?.dominantColour?.bind(vehicleFinder),
      });
    },
  };
}
