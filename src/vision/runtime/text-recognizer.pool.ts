import type { Piscina } from 'piscina';
import type { OcrType, TextReading, TextRecognizer } from '../../services/recognition/text-recognizer.port.js';
import { createWorkerPool, siblingModule } from './worker-pool.js';

/** TextRecognizer on worker threads; the OCR models load once per thread, on first use. */
export class PooledTextRecognizer implements TextRecognizer {
  private pool: Piscina | undefined;

  constructor(private readonly threads: number) {}

  read(type: OcrType, image: Buffer): Promise<TextReading[]> {
    this.pool ??= createWorkerPool(siblingModule(import.meta.url, 'ocr.worker'), this.threads, 'ocr');
    return this.pool.run({ type, image }) as Promise<TextReading[]>;
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }
}
