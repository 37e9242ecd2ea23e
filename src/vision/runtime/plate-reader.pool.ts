import type { Piscina } from 'piscina';
import type { PlateReader, PlateReadOptions, PlateReadResult } from '../plates/plate.types.js';
import { defaultVisionSettings, type VisionSettings } from '../settings.js';
import { createWorkerPool, runTask, siblingModule } from './worker-pool.js';

/** PlateReader on worker threads; detector and OCR models load once per thread, on first use. */
export class PooledPlateReader implements PlateReader {
  private pool: Piscina | undefined;

  constructor(private readonly threads: number, private readonly settings: VisionSettings = defaultVisionSettings()) {}

  read(image: Buffer, options: PlateReadOptions): Promise<PlateReadResult> {
    this.pool ??= createWorkerPool(siblingModule(import.meta.url, 'plate.worker'), this.threads, 'plates', this.settings);
    return runTask<PlateReadResult>(this.pool, 'plates', { image, options });
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }
}
