import { decodeImage } from '../image/decode.js';
import { createOcrEngine } from '../ocr/ocr-engine.js';
import { createPlatePipeline, type PlatePipeline } from '../plates/plate-pipeline.js';
import type { PlateReadOptions, PlateReadResult } from '../../services/recognition/plate-reader.port.js';

let pipeline: Promise<PlatePipeline> | undefined;

/** One pipeline per worker thread: the OCR sessions load on first use and stay. */
function getPipeline(): Promise<PlatePipeline> {
  pipeline ??= createOcrEngine().then((ocr) => createPlatePipeline(ocr));
  return pipeline;
}

/** Worker-thread entry: one plate reading. Buffers arrive as Uint8Arrays (structured clone). */
export default async function readPlates({ image, options }: { image: Uint8Array; options: PlateReadOptions }): Promise<PlateReadResult> {
  const [p, raw] = await Promise.all([getPipeline(), decodeImage(Buffer.from(image.buffer, image.byteOffset, image.byteLength))]);
  return p.read(raw, options);
}
