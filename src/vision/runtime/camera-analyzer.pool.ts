import type { Piscina } from 'piscina';
import type { AnalysisOutcome, CameraAnalyzer } from '../camera-health/types.js';
import { defaultVisionSettings, type VisionSettings } from '../settings.js';
import { createWorkerPool, siblingModule } from './worker-pool.js';

/** CameraAnalyzer on worker threads. The pool starts on first use, so API-only processes
 * never pay for it. */
export class PooledCameraAnalyzer implements CameraAnalyzer {
  private pool: Piscina | undefined;

  constructor(private readonly threads: number, private readonly settings: VisionSettings = defaultVisionSettings()) {}

  analyze(reference: { key: string; bytes: Buffer }, image: Buffer): Promise<AnalysisOutcome> {
    this.pool ??= createWorkerPool(siblingModule(import.meta.url, 'camera-analysis.worker'), this.threads, 'camera-analysis', this.settings);
    return this.pool.run({ referenceKey: reference.key, reference: reference.bytes, image }) as Promise<AnalysisOutcome>;
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }
}
