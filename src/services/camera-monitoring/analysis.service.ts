import type { JobPayload } from '../../queue/jobs.js';
import type { Metrics } from '../metrics.js';
import { NO_EVENTS, type EventPublisher, type VigilEvent } from '../notifications/ports.js';
import { classifyScores, confirmObstruction, DEFAULT_REVIEW_BAND, DEFAULT_THRESHOLDS, type AnomalyScores, type Thresholds } from '../../domain/camera-health.js';
import type { LogStatus } from '../../domain/camera-status.js';
import type { CameraLogRepository, CameraLogRow } from '../../storage/repositories/camera-log.repository.js';
import type { CameraRepository, CameraRow } from '../../storage/repositories/camera.repository.js';
import { ImageDecodeError, probeImage } from '../../vision/image/decode.js';
import type { ImageService } from '../images.service.js';
import type { AlertService } from './alerts.service.js';
import type { CameraAnalyzer } from '../../vision/camera-health/types.js';

/** What a `camera.analyze` job carries (queue/jobs.ts). */
export type AnalyzeJob = JobPayload<'camera.analyze'>;

/** Smallest side an image must have to be analysed (also as a reference). */
export const MIN_SIDE = 64;

/** Turns an uploaded image into a camera log: analysis against the reference, status from the
 * camera's thresholds, the camera's latest status, and an alert when the status changed. */
export class CameraAnalysisService {
  constructor(
    private readonly cameras: CameraRepository,
    private readonly logs: CameraLogRepository,
    private readonly images: ImageService,
    private readonly alerts: AlertService,
    private readonly analyzer: CameraAnalyzer,
    private readonly options: { obstructionConfirmations: number; metrics?: Metrics; events: EventPublisher } = { obstructionConfirmations: 2, events: NO_EVENTS },
  ) {}

  async run(job: AnalyzeJob): Promise<void> {
    const camera = await this.cameras.findById(job.cameraId);
    // Deleted since the upload (with its license or account): the upload's image, which no log
    // will point at, goes too.
    if (!camera) return this.images.removeById(job.imageId);
    const existing = await this.logs.findByImage(job.imageId);
    if (existing && existing.status !== 'pending_retry') return; // already recorded: re-run after a crash
    const image = await this.images.bytesOf(job.imageId);
    if (!image) return;

    const result = await this.evaluate(camera, job, image);
    await this.record(camera, job, existing, result);
  }

  /** While retries are pending, the log says so. */
  async markPendingRetry(job: AnalyzeJob, error: Error): Promise<void> {
    const camera = await this.cameras.findById(job.cameraId);
    if (!camera) return;
    const existing = await this.logs.findByImage(job.imageId);
    await this.record(camera, job, existing, { status: 'pending_retry', anomalies: {}, scores: null, detail: error.message }, false);
  }

  /** Out of retries: a person should look at it. */
  async markGivenUp(job: AnalyzeJob, error: Error): Promise<void> {
    const camera = await this.cameras.findById(job.cameraId);
    if (!camera) return;
    const existing = await this.logs.findByImage(job.imageId);
    await this.record(camera, job, existing, { status: 'under_review', anomalies: {}, scores: null, detail: `analysis failed: ${error.message}` });
  }

  private async evaluate(camera: CameraRow, job: AnalyzeJob, image: Buffer): Promise<Evaluation> {
    const imageId = job.imageId;
    const small = await analysable(image);
    if (small) return { status: 'config_issue', anomalies: {}, scores: null, detail: small };
    if (camera.reference_image_id === null) {
      // The first analysable upload becomes the reference it will be compared with.
      await this.cameras.setReference(camera.id, imageId);
      return { status: 'normal', anomalies: {}, scores: null, detail: 'became the reference image' };
    }
    const reference = await this.images.bytesOf(camera.reference_image_id);
    if (!reference) return { status: 'config_issue', anomalies: {}, scores: null, detail: 'reference image missing' };
    const outcome = await this.analyzer.analyze({ key: `image-${camera.reference_image_id}`, bytes: reference }, image);
    if (outcome.kind === 'not_comparable') return { status: 'config_issue', anomalies: {}, scores: null, detail: outcome.reason };
    const { thresholds, reviewBand } = thresholdsOf(camera);
    const classified = classifyScores(outcome.scores, thresholds, reviewBand);
    const previous = classified.anomalies.Obstruction === undefined ? [] : await this.logs.recentScores(camera.id, job.uploadedAt, this.options.obstructionConfirmations - 1);
    const covered = previous.map((p) => (p.Obstruction ?? 0) >= thresholds.Obstruction);
    const { status, anomalies } = confirmObstruction(classified, covered, this.options.obstructionConfirmations);
    const held = anomalies.Obstruction === undefined && classified.anomalies.Obstruction !== undefined;
    return { status, anomalies, scores: outcome.scores, detail: held ? 'obstruction awaiting confirmation by the next upload' : null };
  }

  private async record(camera: CameraRow, job: AnalyzeJob, existing: CameraLogRow | undefined, e: Evaluation, alert = true): Promise<void> {
    const values = {
      status: e.status, anomalies: JSON.stringify(e.anomalies), scores: e.scores && JSON.stringify(e.scores), detail: e.detail,
    };
    const log = existing
      ? await this.logs.update(existing.id, values)
      : await this.logs.insert({ ...values, camera_id: camera.id, image_id: job.imageId, created_at: job.uploadedAt });
    // An older upload analysed late must not overwrite the status of a newer one.
    if (camera.latest_log_id === null || log.id >= camera.latest_log_id) {
      await this.cameras.setLatest(camera.id, e.status, log.id);
      await this.options.events.publish(camera.account_id, cameraState(camera, e, job.uploadedAt));
    }
    this.options.metrics?.analysis(e.status);
    if (alert) {
      const fresh = (await this.cameras.findById(camera.id)) ?? camera;
      await this.alerts.consider({ camera: fresh, status: e.status, anomalies: e.anomalies, snapshotImageId: job.imageId });
    }
  }
}

/** The camera's new state as broker subscribers receive it (services/mqtt). */
export function cameraState(camera: Pick<CameraRow, 'serial' | 'name' | 'latest_status'>, e: Pick<Evaluation, 'status' | 'anomalies' | 'scores'>, at: number): VigilEvent {
  return { kind: 'camera.state', camera: { serial: camera.serial, name: camera.name }, status: e.status, previous: camera.latest_status, anomalies: e.anomalies, scores: e.scores, at };
}

interface Evaluation {
  status: LogStatus;
  anomalies: Partial<AnomalyScores>;
  scores: AnomalyScores | null;
  detail: string | null;
}

export function thresholdsOf(camera: Pick<CameraRow, 'thresholds' | 'review_band'>): { thresholds: Thresholds; reviewBand: number } {
  const overrides = camera.thresholds ? (JSON.parse(camera.thresholds) as Partial<Thresholds>) : {};
  return { thresholds: { ...DEFAULT_THRESHOLDS, ...overrides }, reviewBand: camera.review_band ?? DEFAULT_REVIEW_BAND };
}

/** A reason the image cannot be analysed at all, or undefined when it can. */
async function analysable(image: Buffer): Promise<string | undefined> {
  try {
    const { width, height } = await probeImage(image);
    if (Math.min(width, height) < MIN_SIDE) return `The image is ${width}x${height} pixels; analysis needs at least ${MIN_SIDE} on each side.`;
    return undefined;
  } catch (err) {
    if (err instanceof ImageDecodeError) return err.message;
    throw err;
  }
}
