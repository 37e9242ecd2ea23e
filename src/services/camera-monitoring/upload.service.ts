import type { AccountRow } from '../../storage/repositories/account.repository.js';
import { decodeImage } from '../../vision/image/decode.js';
import { errors } from '../errors.js';
import type { ImageService, StoredImage } from '../images.service.js';
import type { TransactionRepositories, UnitOfWork } from '../unit-of-work.js';

export const UPLOAD_MESSAGES = {
  created: 'Log created successfully.',
  tooSoon: 'Camera already uploaded a log recently.',
} as const;

const SERIAL = /^[\x21-\x7e]{1,128}$/;
const TAG = /^[^\x00-\x1f]{1,64}$/;

export interface UploadInput {
  serial: string;
  tag?: string;
  bytes: Buffer;
}

/** Accepts a camera image: registers the camera on first sight, enforces the per-camera
 * interval, stores the image and enqueues its analysis in one transaction. */
export class CameraUploadService {
  constructor(
    private readonly transaction: UnitOfWork,
    private readonly images: ImageService,
    private readonly options: { intervalSeconds: number; maxPixels: number },
  ) {}

  async createLog(account: AccountRow, input: UploadInput, now = Date.now()): Promise<void> {
    if (!account.features.includes('camera-monitoring')) {
      throw errors.forbidden('Camera monitoring is not enabled for this account.', 'feature_disabled');
    }
    const serial = input.serial.trim();
    if (!SERIAL.test(serial)) throw errors.badRequest('camera_id must be 1 to 128 printable characters without spaces.', 'invalid_camera_id');
    // A path segment of . or .. is resolved away by browsers and HTTP libraries: such a camera
    // could never be read or deleted through the API.
    if (serial === '.' || serial === '..') throw errors.badRequest('camera_id cannot be "." or "..".', 'invalid_camera_id');
    const tag = input.tag?.trim();
    if (tag !== undefined && tag !== '' && !TAG.test(tag)) throw errors.badRequest('tag must be 1 to 64 characters.', 'invalid_tag');
    // A full (tiny) decode catches truncated and corrupt files before anything is stored.
    await decodeImage(input.bytes, { maxPixels: this.options.maxPixels, maxSide: 32, grayscale: true });

    // The bytes are written before the transaction commits: if it fails, they are removed.
    let stored: StoredImage | undefined;
    await this.transaction(async (repos) => {
      const { cameras } = repos;
      const camera = (await cameras.findBySerial(account.id, serial)) ?? (await this.register(repos, account, serial, now));
      const license = await repos.licenses.findById(camera.license_id);
      if (!license || license.expiration <= now) throw errors.forbidden('The license of this camera has expired.', 'license_expired');
      if (!(await cameras.claimUploadSlot(camera.id, now, this.options.intervalSeconds * 1000))) {
        const retryAfter = ((camera.last_upload_at ?? now) + this.options.intervalSeconds * 1000 - now) / 1000;
        throw errors.rateLimited(UPLOAD_MESSAGES.tooSoon, retryAfter, 'camera_upload_too_soon');
      }
      if (tag) await cameras.addTag(account.id, camera.id, tag);
      const image = await this.images.store(account.id, input.bytes, `accounts/${account.id}/cameras/${camera.id}`, now, repos.images);
      stored = image;
      await repos.jobs.enqueue('camera.analyze', { cameraId: camera.id, imageId: image.id, uploadedAt: now });
    }).catch(async (err: unknown) => {
      if (stored) await this.images.discard(stored);
      throw err;
    });
  }

  /** New serials go to the oldest license that is not expired and has room. */
  private async register({ cameras, licenses: licenseRepo }: TransactionRepositories, account: AccountRow, serial: string, now: number) {
    // Oldest first: the listing is most recent first.
    const licenses = (await licenseRepo.listForAccount(account.id)).reverse();
    if (licenses.length === 0) throw errors.forbidden('This account has no camera monitoring license.', 'no_license');
    const valid = licenses.filter((l) => l.expiration > now);
    if (valid.length === 0) throw errors.forbidden('Every license of this account has expired.', 'license_expired');
    const counts = await cameras.countByLicense(valid.map((l) => l.id));
    const free = valid.find((l) => (counts.get(l.id) ?? 0) < l.size);
    if (!free) throw errors.forbidden('No license has room for another camera: every license is at its size.', 'license_full');
    return cameras.create({ accountId: account.id, licenseId: free.id, serial }, now);
  }
}
