import type { Piscina } from 'piscina';
import type { PlateReader, PlateReadOptions, PlateReadResult } from '../../services/recognition/plate-reader.port.js';
import { createWorkerPool, siblingModule } from './worker-pool.js';

/** PlateReader on worker threads; detector and OCR models load once per thread, on first use. */
export class PooledPlateReader implements PlateReader {
  private pool: Piscina | undefined;

  constructor(private readonly threads: number) {}

  read(image: Buffer, options: PlateReadOptions): Promise<PlateReadResult> {
    this.pool ??= createWorkerPool(siblingModule(import.meta.url, 'plate.worker'), this.threads, 'plates');
    return this.pool.run({ image, options }) as Promise<PlateReadResult>;
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }
}
