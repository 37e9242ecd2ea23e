import type { RawImage } from '../image/decode.js';
import { resizeWithLibvips } from '../image/libvips-resize.js';

export interface DetectionView {
  image: RawImage;
  /** Multiply view coordinates by these to get full-image pixels. */
  scaleX: number;
  scaleY: number;
}

/** The picture the text detector sees: longer side `limitSide` (enlarged at most `maxUpscale`
 * times for small images such as plate crops) and at most `maxPixels` pixels (the detector's
 * cost follows its area: a square photo at the same longer side costs almost twice a 16:9 one),
 * sides multiples of 32 so the detector does not resize again. Resized by libvips: several
 * times faster than a JS resize of a full photo. */
export async function detectionView(image: RawImage, limitSide: number, maxUpscale = 3, maxPixels = Infinity): Promise<DetectionView> {
  const longer = Math.max(image.width, image.height);
  let ratio = Math.min(limitSide / longer, maxUpscale);
  // Only photos the detector shrinks anyway are shrunk further: small ones keep their enlargement.
  if (ratio < 1) ratio = Math.min(ratio, Math.sqrt(maxPixels / (image.width * image.height)));
  const round32 = (v: number) => Math.max(32, Math.round((v * ratio) / 32) * 32);
  const width = round32(image.width);
  const height = round32(image.height);
  if (width === image.width && height === image.height) return { image, scaleX: 1, scaleY: 1 };
  return {
    image: await resizeWithLibvips(image, width, height, ratio < 1 ? 'linear' : 'cubic'),
    scaleX: image.width / width,
    scaleY: image.height / height,
  };
}
