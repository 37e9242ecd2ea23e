import type { Piscina } from 'piscina';
import type { OcrType, TextReading, TextRecognizer } from '../ocr/ocr.types.js';
import type { PlateReader, PlateReadOptions, PlateReadResult } from '../plates/plate.types.js';
import { defaultVisionSettings, type VisionSettings } from '../settings.js';
import type { RecognitionTask } from './recognition.worker.js';
import { createWorkerPool, runTask, siblingModule } from './worker-pool.js';

/** Plate and text recognition on one pool of worker threads (recognition.worker.ts): the models
 * load once per thread, on first use, and serve both. */
export class RecognitionWorkers {
  private pool: Piscina | undefined;

  constructor(private readonly threads: number, private readonly settings: VisionSettings = defaultVisionSettings()) {}

  readonly plates: PlateReader = {
    read: (image: Buffer, options: PlateReadOptions) => this.run<PlateReadResult>({ kind: 'plates', image, options }),
  };

  readonly text: TextRecognizer = {
    read: (type: OcrType, image: Buffer) => this.run<TextReading[]>({ kind: 'text', type, image }),
  };

  private run<T>(task: RecognitionTask): Promise<T> {
    this.pool ??= createWorkerPool(siblingModule(import.meta.url, 'recognition.worker'), this.threads, 'recognition', this.settings);
    return runTask<T>(this.pool, 'recognition', task);
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }
}
