import type { RawImage } from '../../image/decode.js';
import { type Quad, quadSize } from '../../image/quad.js';
import { warpQuad } from '../../image/warp.js';
import type { DecodedText } from '../ctc-decode.js';
import { ALPHANUMERIC } from '../dictionary.js';
import type { OcrEngine } from '../ocr-engine.js';

/** A row of the photo (a quad along a line's own axis, grown past what the detector boxed) cut
 * out at its own size and read again, letters and digits only: how a reader looks for the
 * characters a text box left out. */
export async function readRow(engine: Pick<OcrEngine, 'recognizeCrops'>, image: RawImage, row: Quad): Promise<DecodedText | undefined> {
  const { width, height } = quadSize(row);
  const [read] = await engine.recognizeCrops([warpQuad(image, row, Math.max(1, Math.round(width)), Math.max(1, Math.round(height)))], { charset: ALPHANUMERIC });
  return read;
}
