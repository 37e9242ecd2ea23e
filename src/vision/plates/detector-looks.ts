import type { RawImage } from '../image/decode.js';
import { overlapRatio } from '../image/box-overlap.js';
import { CLOSE_UP_CHECK_BELOW, isCloseUp } from './close-up.js';
import { CLOSE_UP_ZOOM, type PlateDetection, type PlateDetector } from './plate-detector-model.js';
import type { PassSettings } from './plate-modes.js';

/** A box of the finer look that overlaps none of the first look's boxes by more than this
 * (intersection over the smaller box) is a plate the first look missed. */
const NEW_PLATE_OVERLAP = 0.3;

/**
 * The plate detector's looks at a photo for a `plates` pass, and whether the photo is a close-up
 * (a phone held to the plate): a plate too large for the detector, which boxes nothing or pieces
 * of it, unsurely. One look at the photo shrunk (CLOSE_UP_ZOOM) tells; a close-up's plates are
 * the shrunk look's. Where the pass asks for it (PassSettings.finerSide), a second look on a
 * larger canvas adds the plates too small for the first; the first look's boxes stand. `floor`:
 * the lowest peak kept (redaction takes boxes down to threshold_d), default the detector's.
 */
export async function detectorLooks(image: RawImage, detector: PlateDetector, pass: PassSettings, { floor }: { floor?: number } = {}): Promise<PlateDetection & { closeUp: boolean }> {
  const options = floor === undefined ? {} : { minScore: floor };
  const detection = await detector.detect(image, { ...options, side: pass.detSide });
  const surest = detection.plates[0]?.score ?? 0;
  if (surest < CLOSE_UP_CHECK_BELOW) {
    const shrunk = (await detector.detect(image, { ...options, zoom: CLOSE_UP_ZOOM })).plates;
    if (isCloseUp(image, shrunk, surest)) return { ...detection, plates: shrunk, closeUp: true };
  }
  if (!pass.finerSide || pass.finerSide <= pass.detSide) return { ...detection, closeUp: false };
  const finer = await detector.detect(image, { ...options, side: pass.finerSide });
  const added = finer.plates.filter((p) => detection.plates.every((q) => overlapRatio(p.box, q.box) <= NEW_PLATE_OVERLAP));
  return { ...detection, plates: [...detection.plates, ...added].sort((a, b) => b.score - a.score), closeUp: false };
}
