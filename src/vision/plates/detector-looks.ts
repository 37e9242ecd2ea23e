import type { RawImage } from '../image/decode.js';
import { overlapRatio } from '../image/box-overlap.js';
import { CLOSE_UP_CHECK_BELOW, isCloseUp } from './close-up.js';
import { CLOSE_UP_ZOOM, type DetectedPlate, type PlateDetection, type PlateDetector } from './plate-detector-model.js';
import type { FinerLook, PassSettings } from './plate-modes.js';

/** A box of the finer look that overlaps none of the first look's boxes by more than this
 * (intersection over the smaller box) is a plate the first look missed. */
const NEW_PLATE_OVERLAP = 0.3;

/** What the detector's looks found (see detectorLooks). */
export interface DetectorLooks extends PlateDetection {
  /** The photo is a close-up: `plates` are the shrunk look's. */
  closeUp: boolean;
  /** The finer look's boxes of plates the first look boxed unsurely, best first: read only where
   * the first look's boxes gave no sure plate. */
  deferred: DetectedPlate[];
}

/**
 * The plate detector's looks at a photo for a `plates` pass, and whether the photo is a close-up
 * (a phone held to the plate): a plate too large for the detector, which boxes nothing or pieces
 * of it, unsurely. One look at the photo shrunk (CLOSE_UP_ZOOM) tells; a close-up's plates are
 * the shrunk look's. With `finer` (PassSettings.finer: PLATE_SEARCH=small-plates, fast mode) a
 * second look on a larger canvas adds the plates too small for the first (with
 * `finer.whenSurestBelow`, only where the first look's surest box scores under it). Each of its
 * boxes is dropped where a first-look box that `finer.blockedBy` names covers it; `deferred`
 * where only other first-look boxes cover it (read after them, and only where they read no sure
 * plate); else it joins the first look's `plates`. `floor`: the lowest peak kept (redaction
 * takes boxes down to threshold_d), default the detector's.
 */
export async function detectorLooks(image: RawImage, detector: PlateDetector, pass: PassSettings, { floor, finer }: { floor?: number; finer?: FinerLook } = {}): Promise<DetectorLooks> {
  const options = floor === undefined ? {} : { minScore: floor };
  const detection = await detector.detect(image, { ...options, side: pass.detSide });
  const surest = detection.plates[0]?.score ?? 0;
  if (surest < CLOSE_UP_CHECK_BELOW) {
    const shrunk = (await detector.detect(image, { ...options, zoom: CLOSE_UP_ZOOM })).plates;
    if (isCloseUp(image, shrunk, surest)) return { ...detection, plates: shrunk, deferred: [], closeUp: true };
  }
  // A photo no larger than the first look's canvas would be seen the same way again (the canvas
  // never enlarges a photo past its own size, plate-detector-model.ts fullCanvas).
  if (!finer || finer.side <= pass.detSide || Math.max(image.width, image.height) <= pass.detSide
    || (finer.whenSurestBelow !== undefined && surest >= finer.whenSurestBelow)) return { ...detection, deferred: [], closeUp: false };
  const found = await detector.detect(image, { ...options, side: finer.side });
  const blocking = finer.blockedBy === 'every-box' ? detection.plates : detection.plates.filter((q) => q.score >= CLOSE_UP_CHECK_BELOW);
  const covered = (p: DetectedPlate, by: readonly DetectedPlate[]) => by.some((q) => overlapRatio(p.box, q.box) > NEW_PLATE_OVERLAP);
  const kept = found.plates.filter((p) => !covered(p, blocking));
  const added = kept.filter((p) => !covered(p, detection.plates));
  const deferred = kept.filter((p) => covered(p, detection.plates));
  return { ...detection, plates: [...detection.plates, ...added].sort((a, b) => b.score - a.score), deferred, closeUp: false };
}
