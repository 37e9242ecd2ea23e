import type { Piscina } from 'piscina';
import type { OcrType, TextReading, TextRecognizer } from '../ocr/ocr.types.js';
import { defaultVisionSettings, type VisionSettings } from '../settings.js';
import { createWorkerPool, runTask, siblingModule } from './worker-pool.js';

/** TextRecognizer on worker threads; the OCR models load once per thread, on first use. */
export class PooledTextRecognizer implements TextRecognizer {
  private pool: Piscina | undefined;

  constructor(private readonly threads: number, private readonly settings: VisionSettings = defaultVisionSettings()) {}

  read(type: OcrType, image: Buffer): Promise<TextReading[]> {
    this.pool ??= createWorkerPool(siblingModule(import.meta.url, 'ocr.worker'), this.threads, 'ocr', this.settings);
    return runTask<TextReading[]>(this.pool, 'ocr', { type, image });
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }
}
