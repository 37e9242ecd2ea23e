import fs from 'node:fs/promises';
import path from 'node:path';
import { present, type RecognitionResult } from './services/recognition/ocr.service.js';
import { type PlateAnswer, plateResponse } from './services/recognition/plate.service.js';
import { OCR_TYPES, type TextRecognizer } from './vision/ocr/ocr.types.js';
import type { PlateReader } from './vision/plates/plate.types.js';
import { AppError } from './services/errors.js';
import { isOneOf } from './domain/choice.js';

/** `vigil ocr --type T IMAGE...`: the responses the API would give, read by the same engine
 * (the worker pool, with the config's vision settings). */
export async function ocrFiles(type: string, files: string[], recognizer: TextRecognizer, onFile: () => void = () => {}): Promise<RecognitionResult[]> {
  if (!isOneOf(OCR_TYPES, type)) throw new AppError(400, 'invalid_type', `Unknown type "${type}"; use one of ${OCR_TYPES.join(', ')}.`);
  const out: RecognitionResult[] = [];
  for (const file of files) {
    const started = performance.now();
    const readings = await recognizer.read(type, await fs.readFile(file));
    out.push(present({ type, family: 'ocr', filename: path.basename(file), cameraId: undefined, timestamp: undefined, withConfidence: true }, readings, Math.round((performance.now() - started) * 1000) / 1000));
    onFile();
  }
  return out;
}

/** `vigil plates IMAGE... [--regions us,br] [--mmc]`: the hosted responses, read by the same
 * reader (the worker pool, with the config's vision settings). */
export async function plateFiles(files: string[], options: { regions: string[]; mmc: boolean }, reader: PlateReader, onFile: () => void = () => {}): Promise<PlateAnswer[]> {
  const out: PlateAnswer[] = [];
  for (const file of files) {
    const started = performance.now();
    const readOptions = { regions: options.regions, strictRegion: false, textFormats: [], mode: 'normal' as const, thresholdD: 0.2, thresholdO: 0.6, strictDetection: false, mmc: options.mmc };
    const found = await reader.read(await fs.readFile(file), readOptions);
    out.push(plateResponse({ filename: path.basename(file), cameraId: undefined, timestamp: undefined, options: readOptions, vehicleMode: false }, found, Math.round((performance.now() - started) * 1000) / 1000, 'hosted'));
    onFile();
  }
  return out;
}
