import { fillsPlateCrop } from './candidate-finder.js';
import { PLATE_MARGINS, type PlateMargins, REDACTION_MARGINS } from './plate-box.js';
import { CLOSE_UP_PAD_X } from './plate-reread.js';
import type { PlateMode } from './plate.types.js';

/** The plate detector's second look (detector-looks.ts): the canvas's longer side, and which of
 * the first look's boxes keep it from adding its own box there: `every-box`, or only `sure-boxes`
 * (CLOSE_UP_CHECK_BELOW), so that beside an unsure first box its own box of that plate is read
 * too where the first box gave no sure plate, and the better reading stands. */
export interface FinerLook {
  side: number;
  blockedBy: 'every-box' | 'sure-boxes';
  /** Look only where the first look's surest box scores under this (default: always). */
  whenSurestBelow?: number;
}

export interface PassSettings {
  /** Where the pass's candidates come from: the text detector's lines (default), or the plate
   * detector's boxes (plate-detector-model.ts), each looked at in a close-up. */
  source?: 'text' | 'plates';
  /** Run only when no earlier pass read a sure plate: the text passes behind a plate pass are a
   * fallback for the plates its detector missed or its reading left unsure. */
  fallback?: boolean;
  /** Longer side of the detector input: the text detector's, or for a `plates` pass the plate
   * detector's canvas (plate-detector-model.ts `fullCanvas`). */
  detSide: number;
  /** A `plates` pass: the plate detector looks a second time, on a larger canvas (see
   * FINER_PLATE_SIDE), and adds the plates it boxes that the first look did not. */
  finer?: FinerLook;
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
  /** A `plates` pass looking again at boxes that gave no plate: close-ups scaled to the
   * characters a plate's box holds, not to the box (RefineOptions.plateText). */
  closeUpOnPlateText?: boolean;
}

export interface ModeSettings {
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
  /** Where the plate detector ran: its boxes that no returned plate covers come back too, unread
   * (plate ""), grown by `margin` of their width and height at each side. Redaction blurs every
   * plate, read or not, and the detector finds plates the reader cannot read. */
  unreadPlates?: { margin: { x: number; y: number } };
  /** A plate read in a scene that the plate detector's vehicle head puts on no vehicle sends the
   * photo to the COCO vehicle detector (PlatePipelineOptions.vehicles), whose vehicles it then
   * takes: the head finds the vehicle under about three plates in four, the COCO detector under
   * nearly all, at about ten times the head's cost (docs/recognition.md). */
  vehicleFallback?: boolean;
}

/** The 640 px pass sees at most 640 x 480 pixels: a square photo at 544 x 544 rather than
 * 640 x 640 (a third less detector time; 16:9 and 4:3 photos are unchanged). */
const COARSE_PIXELS = 640 * 480;

/** Regular mode's text passes: alone, or behind the plate detector's pass as a fallback. */
const NORMAL_TEXT_PASSES: PassSettings[] = [
  { detSide: 640, detPixels: COARSE_PIXELS, maxUpscale: 2, candidates: 4, boxThreshold: 0.6, refine: 2 },
  { detSide: 960, maxUpscale: 2, candidates: 6, boxThreshold: 0.6, refine: 3 },
];

/** The canvas of the plate detector's second, finer look (PassSettings.finer): 960 x 576, where a
 * 1080p frame shows it plates of 50-60 px (a second car farther off, a wide parking view) that it
 * boxes barely or not at all at 640 x 384 (fit half, two scene photos on one 1080p canvas: US
 * plates boxed at 0.5 or more 42 -> 63 of 66). Redaction takes it, adding boxes where the first
 * look boxed nothing: held half, two photos to a canvas (`bench:plates -- --pairs --modes
 * redaction`, 2026-12-06), US plates covered 92.2% -> 98.4%; single photos 100% both, at 1.24-1.34
 * times the time. Letting it box beside unsure first boxes too covered 100% of the pairs but read
 * 2 fewer held US single photos. Regular mode takes it only with PLATE_SEARCH=small-plates
 * (plate-search.ts): by default it cost held single photos plates and time (docs/benchmarks.md). */
export const FINER_PLATE_SIDE = 960;

/** Fast mode's second detector look, on 960 x 576, where the first look boxed nothing at 0.6 or
 * more: a plate under about 100 px wide in a 1080p frame is boxed there unsurely or not at all,
 * and fast mode has no text pass to find it. Pasted plates at half size (`bench:plates-ab --
 * --sets pasted-us --paste-scale 0.5 --split fit --modes fast`, 2026-12-07), read and time
 * against none: under 0.5 84.8%, 1.05-1.10 times; 0.6 89.0%, 1.11-1.12; 0.7 89.5%, 1.20; 0.8
 * 89.5%, 1.47; none 83.2%. */
const FAST_FINER_LOOK: FinerLook = { side: FINER_PLATE_SIDE, blockedBy: 'sure-boxes', whenSurestBelow: 0.6 };

const REDACTION_TEXT_PASS: PassSettings = { detSide: 960, maxUpscale: 3, candidates: 16, boxThreshold: 0.45, refine: 8 };

export const MODES: Record<PlateMode, ModeSettings> = {
  normal: {
    passes: NORMAL_TEXT_PASSES,
    minLength: 4,
    maxLength: 8,
    readPadding: { x: 0.1, y: 0.05, closeUpX: CLOSE_UP_PAD_X },
    sureScore: 0.88,
    plateMargins: PLATE_MARGINS,
    readLegends: true,
    secondOpinion: 'unsettled',
    vehicleFallback: true,
    detectorPasses: [
      { source: 'plates', detSide: 640, maxUpscale: 2, candidates: 4, boxThreshold: 0.6, refine: 4 },
      ...NORMAL_TEXT_PASSES.map((p) => ({ ...p, fallback: true })),
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
    // Only the best box gets a close-up: closing up on the next two read no more plates on the
    // fit half of the scenes (us, eu, br; 2026-11-27) and cost a tenth more time.
    detectorPasses: [{ source: 'plates', detSide: 640, finer: FAST_FINER_LOOK, maxUpscale: 2, candidates: 3, boxThreshold: 0.6, refine: 1 }],
  },
  // Recall first: a looser detector, more candidates, short plates kept, every pass, and the
  // plate detector's boxes whether they are read or not.
  redaction: {
    passes: [REDACTION_TEXT_PASS],
    detectorPasses: [{ source: 'plates', detSide: 640, finer: { side: FINER_PLATE_SIDE, blockedBy: 'every-box' }, maxUpscale: 2, candidates: 16, boxThreshold: 0.45, refine: 8 }, REDACTION_TEXT_PASS],
    minLength: 2, maxLength: 10, readPadding: { x: 0.1, y: 0.05, closeUpX: CLOSE_UP_PAD_X }, sureScore: 0.8, plateMargins: REDACTION_MARGINS,
    unreadPlates: { margin: { x: 0.15, y: 0.3 } },
    secondOpinion: 'twin-ties',
    // The vendor's redaction script skips plates without a vehicle box (--ignore-no-bb).
    vehicleFallback: true,
  },
};

/** The number that fills a plate crop may be as short as this (low numbers, a serial beside a
 * county number or an emblem, as on Wyoming's plates); in a photo of a scene a line that short
 * is far more often a badge or a plate read in part, so there the mode's minimum stands. */
export const CROP_MIN_LENGTH = 3;

/** The shortest reading a candidate may give: see CROP_MIN_LENGTH. */
export function minPlateLength(modeMin: number, lineHeight: number, imageHeight: number): number {
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

/** Whether the latest pass's view (`scales`, see `distinctView`) is larger than every earlier one's. */
export const finest = (scales: readonly number[]) => scales.slice(0, -1).every((s) => s < scales[scales.length - 1]!);

/** The plate detector learned plates in photos of scenes; a picture no longer than this (a plate
 * crop, a close-up) goes straight to the text detector's passes, which read crops better
 * (plates-crops-us, whose crops are at most 320 px wide; held half, 2026-11-27, trained reader
 * with PP-OCR's second opinion: 90.9% read from the detector's boxes, 95.5% from the text passes). */
const PLATE_PASS_MIN_SIDE = 400;

/** A picture at least this large is a photo of a scene, not a plate crop (see PLATE_PASS_MIN_SIDE). */
export function isScene(image: { width: number; height: number }): boolean {
  return Math.max(image.width, image.height) >= PLATE_PASS_MIN_SIDE;
}

/** The passes of `mode` for `image`: the detector's passes where there is a plate detector and
 * the image is a photo of a scene, else the text detector's. */
export function passesFor(mode: ModeSettings, image: { width: number; height: number }, hasPlateDetector: boolean): PassSettings[] {
  return (hasPlateDetector && isScene(image) && mode.detectorPasses) || mode.passes;
}
