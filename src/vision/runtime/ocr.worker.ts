import type { OcrType, TextReading } from '../ocr/ocr.types.js';
import { decodeForRecognition } from '../image/decode.js';
import { createOcrEngine, type OcrEngine } from '../ocr/ocr-engine.js';
import { readText } from '../ocr/readers/text-reader.js';
import { ocrEngineOptions, workerVisionSettings } from '../settings.js';

/** The models load once per worker thread, on the first task. */
let engine: Promise<OcrEngine> | undefined;

/** Worker-thread entry: read identifiers of `type` from an image. */
export default async function read(task: { type: OcrType; image: Uint8Array }): Promise<TextReading[]> {
  engine ??= createOcrEngine(ocrEngineOptions(workerVisionSettings()));
  const img = await decodeForRecognition(Buffer.from(task.image.buffer, task.image.byteOffset, task.image.byteLength), { maxSide: 2048 });
  return readText(await engine, task.type, img);
}
