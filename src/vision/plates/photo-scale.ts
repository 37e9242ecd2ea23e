/** Longer side of the photos the plate steps' pixel sizes were set on (most scene photos are
 * 1280 x 720; the coarse detector pass sees them at half that). */
export const REFERENCE_SIDE = 1280;

/** What turns a photo's pixels into reference pixels: a photo larger than REFERENCE_SIDE holds
 * the same scene at more pixels, and an upscale (1280 x 720 shown at 1920 x 1080) adds none of
 * the detail a size judged in pixels stands for, so there sizes count as if the photo were
 * REFERENCE_SIDE on its longer side. Smaller photos keep their own pixels (1): their text is
 * as small as it looks. */
export function referenceScale(image: { width: number; height: number }): number {
  return Math.min(1, REFERENCE_SIDE / Math.max(1, image.width, image.height));
}
