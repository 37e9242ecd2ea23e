import type { RawImage } from '../image/decode.js';
import { isVehicleBadge } from '../../domain/plates/vehicle-badges.js';
import { isLegendReading } from '../../domain/plates/plate-legends.js';
import type { Box, PlateCandidate, PlateReading, PlateReadOptions, PlateReadResult } from './plate.types.js';
import { type DetectedText, fillsPlateCrop } from './candidate-finder.js';
import { fadeColouredGlyphs, readThroughArtwork } from './coloured-glyphs.js';
import { doubtDisagreements } from './look-agreement.js';
import { overlapRatio } from '../image/box-overlap.js';
import { dedupePlates, dropSubordinateText, dropTruncatedReadings, isOverlayText, spans } from './plate-dedupe.js';
import { type CandidateReading, type CropRecognizer, rereadCandidates } from './plate-reread.js';
import { type CharOption, type ScoredPlate, scoreReading } from './plate-scoring.js';
import { type PlateSearch, SMALL_PLATES_LOOK } from './plate-search.js';
import type { PlateVehicles } from './plate-vehicles.js';
import { assignVehicles, type FoundVehicle, type VehicleFinder, vehicleHolding } from './vehicle-assignment.js';
import { CLOSE_UP_CROP_SIDE, scaledResult } from './close-up.js';
import { resizeWithLibvips } from '../image/libvips-resize.js';
import { DETECTOR_FLOOR, type DetectedPlate, type PlateDetector } from './plate-detector-model.js';
import { detectorLooks, type DetectorLooks } from './detector-looks.js';
import { dropTextAroundPlates, surroundings } from './plate-surroundings.js';
import { plateBox, textBounds } from './plate-box.js';
import { regionsOnPlates } from './plate-legend.js';
import { CROP_MIN_LENGTH, distinctView, finest, isScene, minPlateLength, MODES, type ModeSettings, type PassSettings, passesFor } from './plate-modes.js';
import { passCandidates, withDetectedPlates } from './pass-candidates.js';
import { bestOfViews, breakTwinTies, createLineJudge, type LineJudge, lineHeight, regionByFont } from './reading-choice.js';
import { wideFont } from './plate-font.js';

/** The plate pipeline: plates found in a photo by passes of a detector (plate-modes.ts,
 * pass-candidates.ts), each candidate read with the plate charset by the reader, unsure ones
 * again by a second opinion, and the region grammars choosing each reading (reading-choice.ts). */

/** What the pipeline needs from the OCR engine (src/vision/ocr `OcrEngine` satisfies it). */
export interface PlateOcr extends CropRecognizer {
  detect(image: RawImage, options?: { detLimitSide?: number; boxThreshold?: number; unclipRatio?: number }): Promise<DetectedText[]>;
}

export const MAX_CANDIDATES_PER_PLATE = 10;

/** Readings of the own-pixels look (see `distinctView`) that add to the earlier passes: text
 * where they read nothing of a like size (small print under a number does not count), or the
 * same text read with more characters. Elsewhere the earlier reading stands: the look exists to
 * box large text whole, not to re-read characters the earlier passes saw whole. */
export function completions<T extends { plate: string; textBox: Box; lineHeight: number }>(found: readonly T[], earlier: readonly T[]): T[] {
  return found.filter((p) => earlier.every((e) => overlapRatio(e.textBox, p.textBox) <= 0.5
    || e.lineHeight < 0.5 * p.lineHeight || (p.plate.length > e.plate.length && spans(p.textBox, e.textBox))));
}

/** A plate the plate detector boxed surely and the reader read surely, every character of it,
 * in some region's format: the generic shapes included, which cap a reading's score below a
 * mode's sure score (a US vanity plate, 853FL, scores 0.835). The text passes behind the
 * detector look for plates it missed; behind such a plate they read no more plates on the dev
 * scenes, only false ones, and cost a 1080p photo 100-700 ms more (2026-12-06). */
const PLAINLY_READ = 0.9;
const isPlainlyRead = (p: RankedPlate) => p.matched && p.weakest >= PLAINLY_READ && p.dscore >= PLAINLY_READ;

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
  /** What reads plate crops (pictures smaller than a scene, see isScene), default `reader`:
   * the pipeline reads crops through the text detector's passes, which were tuned around PP-OCR's
   * recogniser. */
  cropReader?: CropRecognizer;
  /** In modes that ask for it, what reads again the lines `reader` did not settle (a different
   * model errs on different plates). Default: none. */
  secondOpinion?: CropRecognizer;
  /** Vigil's plate detector: modes with `detectorPasses` find candidates with it first. */
  plateDetector?: PlateDetector;
  /** When the vehicle finder looks (PLATE_VEHICLES, plate-vehicles.ts); default `asked`. */
  vehicleLookups?: PlateVehicles;
}


/** One reader's looks at a candidate: per look, per character, the options (CandidateReading.views). */
type Looks = CharOption[][][];

/** A candidate's plate, from the rankings of every look at it (the reader's first, then the
 * second opinion's), or null where no reading makes a plate of it. */
function rankedPlate(image: RawImage, candidate: PlateCandidate, rankings: readonly ScoredPlate[][], mode: ModeSettings, options: PlateReadOptions): RankedPlate | null {
  const height = lineHeight(candidate.lines);
  const textBox = textBounds(candidate.lines);
  const minLength = minPlateLength(mode.minLength, height, image.height);
  const second = rankings.length > 1 ? bestOfViews(rankings.slice(1)) : undefined;
  const merged = bestOfViews([rankings.flat()]);
  const ranked = breakTwinTies(merged, second, merged[0] && wideFont(candidate, textBox, height, merged[0].plate.length)).filter((r) => r.plate.length >= minLength);
  const top = ranked[0];
  const thresholdO = options.mode === 'redaction' ? Math.min(options.thresholdO, 0.3) : options.thresholdO;
  if (!top || top.score < thresholdO) return null;
  // In a photo of a scene, a reading that fits no region's format (four characters: every
  // longer one fits a generic shape) is a sign's word or a building's number (EXIT, ONLY,
  // 1056); a plate crop's short number stays, and redaction keeps everything.
  if (!top.matched && options.mode !== 'redaction' && !fillsPlateCrop(height, image.height)) return null;
  // A make's badge is text, not a plate (see vehicle-badges.ts): the line is no plate at all.
  if (isOverlayText(top.plate, textBox, image.height) || isVehicleBadge(top.plate)) return null;
  // Nor is a state's name or slogan read as a number; redaction keeps it, a box too many.
  if (options.mode !== 'redaction' && isLegendReading(top.plate)) return null;
  const seen = new Set<string>();
  const list = ranked.filter((r) => !seen.has(r.plate) && seen.add(r.plate)).slice(0, MAX_CANDIDATES_PER_PLATE);
  return {
    box: plateBox(textBox, height, image, mode.plateMargins),
    textBox,
    lineHeight: height,
    matched: top.matched,
    weakest: top.weakest,
    plate: top.plate.toLowerCase(),
    region: { code: regionByFont(top, wideFont(candidate, textBox, height, top.plate.length), options), score: round3(top.region.score) },
    score: round3(top.score),
    candidates: list.map((r) => ({ plate: r.plate.toLowerCase(), score: round3(r.score) })),
    dscore: round3(candidate.dscore),
    vehicle: undefined,
    // Grammar-matching, plate-like readings first.
    rank: top.score * (0.5 + 0.5 * candidate.dscore) * (top.matched ? 1 : 0.8),
  };
}

/** The passes' plates, best first, without the text around plates, readings cut short or the
 * same plate twice; a European band or, where the mode reads them, their legends name their
 * region (regionsOnPlates). */
async function finishedPlates(image: RawImage, plates: RankedPlate[], seen: readonly DetectedText[], ocr: PlateOcr, mode: ModeSettings, options: PlateReadOptions): Promise<PlateReading[]> {
  plates.sort((a, b) => b.rank - a.rank);
  const deduped = dedupePlates(dropTruncatedReadings(dropSubordinateText(dropTextAroundPlates(plates, mode.sureScore))));
  const scope = { regions: options.regions.map((r) => r.toLowerCase()), strict: options.strictRegion };
  const regions = await regionsOnPlates(image, deduped, seen, ocr, scope, !!mode.readLegends);
  regions.forEach((code, i) => {
    if (code) deduped[i]!.region = { ...deduped[i]!.region, code };
  });
  return deduped.map(({ rank: _rank, lineHeight: _h, textBox: _t, matched: _m, weakest: _w, ...p }) => p);
}

/** The second opinion (PP-OCR's recogniser) reads a plate line padded to 160 columns rather
 * than the 320 it was trained at: a line is about 100-200 columns at height 48, and the padding
 * was most of what it read. On the fit halves at 1080p (2026-11-28) 0.87-0.91 times the time per
 * photo in regular mode, the same plates read or one more; plate crops, which PP-OCR reads
 * itself, keep 320 (at 160 it read four fewer of 191). */
export const SECOND_OPINION_MIN_WIDTH = 160;

/** Each reader's looks at each candidate: the reader's, then, for the lines the mode asks
 * about, the second opinion's. The look rules compare looks of one reader. */
async function opinionsOf(image: RawImage, readings: readonly CandidateReading[], mode: ModeSettings, judge: LineJudge, secondOpinion: CropRecognizer | undefined): Promise<Looks[][]> {
  const opinions: Looks[][] = readings.map((r) => [r.views]);
  if (!secondOpinion || !mode.secondOpinion) return opinions;
  const ask = mode.secondOpinion === 'unsettled'
    ? (r: CandidateReading) => !r.views.some((v) => judge.settled(v, r.candidate))
      && judge.worthSecondOpinion(r.views, readings.filter((o) => o !== r).map((o) => o.views))
    : (r: CandidateReading) => judge.twinTied(r.views[0] ?? [], r.candidate);
  const unsure = readings.flatMap((r, i) => (ask(r) ? [i] : []));
  if (unsure.length === 0) return opinions;
  // The second opinion reads each line once, as photographed. An O/0 or I/1 tie is a question
  // about glyphs the first look shows whole, and on an unsettled line the reader's own looks
  // (brightest channel, wider cuts) already stand: PP-OCR reading them too cost regular mode
  // 10-20% of its time on US and Brazilian photos and read no plate more on the dev scenes
  // (2026-12-06).
  const again = await rereadCandidates(image, unsure.map((i) => readings[i]!.candidate), secondOpinion, {
    padding: mode.readPadding, minWidth: SECOND_OPINION_MIN_WIDTH, firstLookOnly: true,
  });
  again.forEach((r, k) => opinions[unsure[k]!]!.push(r.views));
  return opinions;
}

/** The head's vehicles or, where a plate read in a scene is on none of them and the mode looks
 * again, `finder`'s (PLATE_VEHICLES=asked, plate-vehicles.ts). Unread boxes (redaction) do not
 * ask: most are not plates. Nobody asked for this look, so if the finder fails the plates keep
 * the head's vehicles. */
async function lookAgainForUnheld(image: RawImage, plates: readonly PlateReading[], mode: ModeSettings, head: FoundVehicle[] | undefined, finder: VehicleFinder | undefined): Promise<FoundVehicle[] | undefined> {
  if (!finder || !mode.vehicleFallback || !isScene(image)) return head;
  if (plates.every((p) => p.plate === '' || vehicleHolding(p.box, head ?? []))) return head;
  return finder.detect(image).catch(() => head);
}

/** The vehicles for a photo's plates: the COCO vehicle detector's where something asks for them
 * (strict detection, make/model/colour, PLATE_VEHICLES=always), started now beside the plates:
 * it costs more than they do (plate-vehicles.ts). Otherwise the vehicles the plate detector's
 * head found (`head`), at no cost, and for plates read on none of them one look after the
 * plates (lookAgainForUnheld). */
function lookForVehicles(image: RawImage, options: PlateReadOptions, finder: VehicleFinder | undefined, lookups: PlateVehicles, head: FoundVehicle[] | undefined) {
  const wanted = lookups === 'always' || options.strictDetection || options.mmc;
  const asked = finder && wanted ? finder.detect(image) : undefined;
  // Awaited after the plates; marked handled now so a failure is not an unhandled rejection.
  asked?.catch(() => undefined);
  return async (plates: readonly PlateReading[], mode: ModeSettings): Promise<FoundVehicle[] | undefined> => {
    if (wanted) return asked ? await asked : head;
    return lookAgainForUnheld(image, plates, mode, head, lookups === 'asked' ? finder : undefined);
  };
}

/** A close-up read by `pipeline` at a plate crop's size, its boxes given back in the photo's pixels. */
async function readAsCrop(pipeline: PlatePipeline, image: RawImage, options: PlateReadOptions): Promise<PlateReadResult> {
  const scale = CLOSE_UP_CROP_SIDE / Math.max(image.width, image.height);
  const crop = await resizeWithLibvips(image, Math.max(1, Math.round(image.width * scale)), Math.max(1, Math.round(image.height * scale)), 'cubic');
  return scaledResult(await pipeline.read(crop, options), 1 / scale, image);
}

export function createPlatePipeline(ocr: PlateOcr, pipelineOptions: PlatePipelineOptions = {}): PlatePipeline {
  const { vehicles: vehicleFinder, search = 'every-plate', reader: sceneReader = ocr, secondOpinion: sceneSecondOpinion, plateDetector, vehicleLookups = 'asked' } = pipelineOptions;
  const cropReader = pipelineOptions.cropReader ?? sceneReader;
  /** Who reads, and who gives the second opinion, on this picture (a reader is no second opinion of itself). */
  const readersFor = (image: RawImage) => {
    const reader = isScene(image) ? sceneReader : cropReader;
    return { reader, secondOpinion: sceneSecondOpinion === reader ? undefined : sceneSecondOpinion };
  };

  /** One detection pass: its candidates read from full-resolution pixels and scored by the grammars. */
  async function readPass(image: RawImage, pass: PassSettings, mode: ModeSettings, options: PlateReadOptions, sureAreas: readonly Box[], seen: DetectedText[], detectedPlates: readonly DetectedPlate[]): Promise<RankedPlate[]> {
    const candidates = await passCandidates(image, pass, { ocr, detectedPlates }, options, sureAreas, seen);
    // Readings as short as a plate crop allows; each candidate's own minimum is applied in rankedPlate.
    const shortest = Math.min(mode.minLength, CROP_MIN_LENGTH);
    const judge = createLineJudge((chars) => scoreReading(chars, options).filter((s) => s.plate.length >= shortest && s.plate.length <= mode.maxLength), mode);
    // The brightest channel only for candidates the first look did not settle: a reading that
    // fits a region's grammar with a sure score would not change (a third fewer recogniser runs).
    const readings = await rereadCandidates(image, candidates, readersFor(image).reader, { padding: mode.readPadding, secondLook: judge.secondLook });
    const opinions = await opinionsOf(image, readings, mode, judge, readersFor(image).secondOpinion);
    return readings.flatMap(({ candidate }, i) => {
      const rankings = opinions[i]!.map((views) => doubtDisagreements(readThroughArtwork(fadeColouredGlyphs(views))).flatMap((chars) => judge.ranking(chars)));
      return rankedPlate(image, candidate, rankings, mode, options) ?? [];
    });
  }

  /** The mode's passes over the photo, coarse to fine, each looking where the earlier ones left
   * no sure plate; every line they detected goes to `seen`. A `plates` pass reads the detector's
   * `plates`, then its `deferred` boxes away from the sure plates those gave (DetectorLooks). */
  async function runPasses(image: RawImage, passes: readonly PassSettings[], mode: ModeSettings, options: PlateReadOptions, detected: Pick<DetectorLooks, 'plates' | 'deferred'>, seen: DetectedText[]): Promise<RankedPlate[]> {
    const plates: RankedPlate[] = [];
    const scales: number[] = [];
    for (const pass of passes) {
      const sure = plates.filter((p) => p.score >= mode.sureScore);
      if (pass.fallback && (sure.length > 0 || plates.some(isPlainlyRead))) break;
      if (pass.source === 'plates') {
        const read = await readPass(image, pass, mode, options, [], seen, detected.plates);
        plates.push(...read);
        // Boxes that gave no plate at all are looked at once more, closer: a box far larger than
        // its plate (a squarish plate boxed with its surround) showed its number too small. Only
        // the boxes that get a close-up: the rest would be read whole again as they just were.
        // 1080p copies, 2026-12-07: fast mode read AYX8803 so (held scenes), and pasted plates at
        // half size 2 more of 191 (fit) and 198 (held); nothing read fewer.
        if (read.length === 0 && detected.plates.length > 0) {
          const closer = { ...pass, candidates: Math.min(pass.candidates, pass.refine), closeUpOnPlateText: true };
          plates.push(...(await readPass(image, closer, mode, options, [], seen, detected.plates)));
        }
        if (detected.deferred.length > 0) {
          const sureNow = plates.filter((p) => p.score >= mode.sureScore).map(surroundings);
          plates.push(...(await readPass(image, pass, mode, options, sureNow, seen, detected.deferred)));
        }
        continue;
      }
      const view = distinctView(pass, image, scales);
      // Beside a sure plate a finer pass looks for smaller ones, which a view no larger than
      // the earlier ones (a plate crop's own pixels) would not show.
      if (sure.length > 0 && (search === 'first-sure' || !finest(scales))) break;
      const found = await readPass(image, view, mode, options, sure.map(surroundings), seen, detected.plates);
      plates.push(...(view === pass ? found : completions(found, plates)));
    }
    return plates;
  }

  const pipeline: PlatePipeline = {
    async read(image, options) {
      const mode = MODES[options.mode] ?? MODES.normal;
      const passes = passesFor(mode, image, !!plateDetector);
      const platePass = plateDetector && passes.find((p) => p.source === 'plates');
      const finer = platePass?.finer ?? (options.mode === 'normal' && search === 'small-plates' ? SMALL_PLATES_LOOK : undefined);
      const detection = platePass && (await detectorLooks(image, plateDetector, platePass, { floor: mode.unreadPlates ? Math.min(options.thresholdD, DETECTOR_FLOOR) : undefined, finer }));
      // A close-up is read as the plate crop it is, at a crop's size; redaction reads it as it
      // is instead, with the whole plate's box to return read or not.
      if (detection?.closeUp && !mode.unreadPlates) return readAsCrop(pipeline, image, options);
      const detectedPlates = detection?.plates ?? [];
      const vehiclesAround = lookForVehicles(image, options, vehicleFinder, vehicleLookups, detection?.vehicles);
      // Every line the passes detected, in photo pixels: legends are looked for among them.
      const seen: DetectedText[] = [];
      const plates = await runPasses(image, passes, mode, options, { plates: detectedPlates, deferred: detection?.deferred ?? [] }, seen);
      const found = await finishedPlates(image, plates, seen, ocr, mode, options);
      const kept = mode.unreadPlates ? withDetectedPlates(found, detectedPlates, options.thresholdD, mode.unreadPlates.margin, image) : found;
      return assignVehicles(image, kept, await vehiclesAround(kept, mode), {
        strict: options.strictDetection,
        mmc: options.mmc,
        colour: vehicleFinder?.dominantColour?.bind(vehicleFinder),
      });
    },
  };
  return pipeline;
}
