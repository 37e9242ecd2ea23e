import { ANOMALY_KEYS, type Thresholds } from '../../domain/camera-health.js';
import type { CameraLogRepository, LogFilter } from '../../storage/repositories/camera-log.repository.js';
import type { CameraListFilter, CameraRepository, CameraRow } from '../../storage/repositories/camera.repository.js';
import { decodeImage, probeImage } from '../../vision/image/decode.js';
import { errors } from '../errors.js';
import type { ImageService } from '../images.service.js';
import type { LicenseService } from '../licenses.service.js';
import { MIN_SIDE, thresholdsOf } from './analysis.service.js';
import { isOneOf } from '../../domain/choice.js';

/** Reads and changes cameras of the caller's licenses. */
export class CamerasService {
  constructor(
    private readonly licenses: LicenseService,
    private readonly cameras: CameraRepository,
    private readonly logRepo: CameraLogRepository,
    private readonly images: ImageService,
    private readonly options: { maxPixels: number },
  ) {}

  async list(accountId: number, licenseId: number, filter: CameraListFilter) {
    await this.licenses.requireOwned(accountId, licenseId);
    return this.cameras.listByLicense(licenseId, filter);
  }

  /** 403 for another account's license, 404 for a serial not under the license. */
  async require(accountId: number, licenseId: number, serial: string): Promise<CameraRow> {
    await this.licenses.requireOwned(accountId, licenseId);
    const camera = await this.cameras.findInLicense(licenseId, serial);
    if (!camera) throw errors.notFound('No camera with that serial under this license.', 'camera_not_found');
    return camera;
  }

  /** For the CLI, which names a camera by serial only (serials are unique per account). */
  async requireBySerial(accountId: number, serial: string): Promise<CameraRow> {
    const camera = await this.cameras.findBySerial(accountId, serial);
    if (!camera) throw errors.notFound(`No camera with serial ${serial}.`, 'camera_not_found');
    return camera;
  }

  async logs(accountId: number, licenseId: number, serial: string, filter: LogFilter) {
    const camera = await this.require(accountId, licenseId, serial);
    return { camera, logs: await this.logRepo.list(camera.id, filter) };
  }

  /** Removes the camera, its logs, its reference images and every stored image of it. */
  async delete(accountId: number, licenseId: number, serial: string): Promise<void> {
    const camera = await this.require(accountId, licenseId, serial);
    const images = await this.cameras.imagesOf(camera.id);
    await this.cameras.delete(camera.id);
    await this.images.remove(images);
  }

  async referenceUrl(accountId: number, licenseId: number, serial: string): Promise<string | null> {
    const camera = await this.require(accountId, licenseId, serial);
    return this.images.urlOfId(camera.reference_image_id);
  }

  async setReference(accountId: number, licenseId: number, serial: string, bytes: Buffer | undefined): Promise<void> {
    const camera = await this.require(accountId, licenseId, serial);
    if (!bytes || bytes.length === 0) throw errors.badRequest('No image provided: send the file as "upload".', 'missing_upload');
    await decodeImage(bytes, { maxPixels: this.options.maxPixels, maxSide: 32, grayscale: true });
    // Every later upload would be a config_issue against a reference this small.
    const { width, height } = await probeImage(bytes, this.options.maxPixels);
    if (Math.min(width, height) < MIN_SIDE) {
      throw errors.badRequest(`The reference image is ${width}x${height} pixels; it needs at least ${MIN_SIDE} on each side.`, 'reference_too_small');
    }
    const image = await this.images.store(accountId, bytes, `accounts/${accountId}/cameras/${camera.id}/reference`);
    await this.cameras.setReference(camera.id, image.id);
  }

  async thresholds(accountId: number, licenseId: number, serial: string) {
    return thresholdsOf(await this.require(accountId, licenseId, serial));
  }

  /** Sets per-camera thresholds (missing keys keep their defaults) and the review band. */
  async setThresholds(accountId: number, licenseId: number, serial: string, input: { thresholds?: Partial<Thresholds>; reviewBand?: number | null }) {
    const camera = await this.require(accountId, licenseId, serial);
    return this.applyThresholds(camera, input);
  }

  async applyThresholds(camera: CameraRow, input: { thresholds?: Partial<Thresholds>; reviewBand?: number | null }) {
    const current = camera.thresholds ? (JSON.parse(camera.thresholds) as Partial<Thresholds>) : {};
    const merged: Partial<Thresholds> = { ...current };
    for (const [key, value] of Object.entries(input.thresholds ?? {})) {
      if (!isOneOf(ANOMALY_KEYS, key)) throw errors.badRequest(`Unknown anomaly "${key}"; known: ${ANOMALY_KEYS.join(', ')}.`, 'invalid_threshold');
      if (typeof value !== 'number' || !(value > 0 && value <= 1)) throw errors.badRequest(`Threshold of ${key} must be a number in (0, 1].`, 'invalid_threshold');
      merged[key] = value;
    }
    const band = input.reviewBand === undefined ? camera.review_band : input.reviewBand;
    if (band !== null && !(band >= 0 && band < 1)) throw errors.badRequest('review_band must be a number in [0, 1).', 'invalid_threshold');
    await this.cameras.setThresholds(camera.id, Object.keys(merged).length ? JSON.stringify(merged) : null, band);
    return thresholdsOf({ thresholds: Object.keys(merged).length ? JSON.stringify(merged) : null, review_band: band });
  }

  /** Display name (1..100 characters) and notes (up to 2000), edited in the dashboard. */
  async setDetails(accountId: number, licenseId: number, serial: string, details: { name: string; notes: string }): Promise<void> {
    const camera = await this.require(accountId, licenseId, serial);
    const name = details.name.trim();
    if (name.length < 1 || name.length > 100) throw errors.badRequest('The name must have 1 to 100 characters.', 'invalid_name');
    if (details.notes.length > 2000) throw errors.badRequest('Notes are limited to 2000 characters.', 'invalid_notes');
    await this.cameras.setDetails(camera.id, { name, notes: details.notes });
  }

  /** Makes a past snapshot of the camera its reference (the same stored image, no copy). */
  async setReferenceFromLog(accountId: number, licenseId: number, serial: string, logId: number): Promise<void> {
    const camera = await this.require(accountId, licenseId, serial);
    const imageId = await this.cameras.snapshotOf(camera.id, logId);
    if (imageId === undefined) throw errors.notFound('That log has no snapshot of this camera.', 'log_not_found');
    await this.cameras.setReference(camera.id, imageId);
  }

  /** The latest log of each camera, keyed by camera id. */
  async latestLogs(cameras: Array<Pick<CameraRow, 'id' | 'latest_log_id'>>) {
    const byId = await this.cameras.logsById(cameras.flatMap((c) => (c.latest_log_id === null ? [] : [c.latest_log_id])));
    return new Map(cameras.flatMap((c) => {
      const log = c.latest_log_id === null ? undefined : byId.get(c.latest_log_id);
      return log ? [[c.id, log] as const] : [];
    }));
  }
}
