import fs from 'node:fs/promises';
import path from 'node:path';
import { present, type RecognitionResult } from './services/recognition/ocr.service.js';
import { type PlateAnswer, plateResponse } from './services/recognition/plate.service.js';
import { OCR_TYPES, type OcrType } from './vision/ocr/ocr.types.js';
import { AppError } from './services/errors.js';

/** `vigil ocr --type T IMAGE...`: the responses the API would give, read in this process. */
export async function ocrFiles(type: string, files: string[], onFile: () => void = () => {}): Promise<RecognitionResult[]> {
  if (!(OCR_TYPES as readonly string[]).includes(type)) throw new AppError(400, 'invalid_type', `Unknown type "${type}"; use one of ${OCR_TYPES.join(', ')}.`);
  // The worker's entry, run in this process: the same decoding and reading as the API's.
  const { default: readText } = await import('./vision/runtime/ocr.worker.js');
  const out: RecognitionResult[] = [];
  for (const file of files) {
    const started = performance.now();
    const readings = await readText({ type: type as OcrType, image: await fs.readFile(file) });
    out.push(present({ type: type as OcrType, family: 'ocr', filename: path.basename(file), cameraId: undefined, timestamp: undefined, withConfidence: true }, readings, Math.round((performance.now() - started) * 1000) / 1000));
    onFile();
  }
  return out;
}

/** `vigil plates IMAGE... [--regions us,br] [--mmc]`: the hosted responses, read in this process. */
export async function plateFiles(files: string[], options: { regions: string[]; mmc: boolean }, onFile: () => void = () => {}): Promise<PlateAnswer[]> {
  const { default: readPlates } = await import('./vision/runtime/plate.worker.js');
  const out: PlateAnswer[] = [];
  for (const file of files) {
    const started = performance.now();
    const readOptions = { regions: options.regions, strictRegion: false, textFormats: [], mode: 'normal' as const, thresholdD: 0.2, thresholdO: 0.6, strictDetection: false, mmc: options.mmc };
    const found = await readPlates({ image: await fs.readFile(file), options: readOptions });
    out.push(plateResponse({ filename: path.basename(file), cameraId: undefined, timestamp: undefined, options: readOptions, vehicleMode: false }, found, Math.round((performance.now() - started) * 1000) / 1000, 'hosted'));
    onFile();
  }
  return out;
}
