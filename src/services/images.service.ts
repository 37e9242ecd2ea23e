import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { probeImage } from '../vision/image/decode.js';
import type { BlobStore } from '../storage/blobs/blob-store.js';
import { ImageRepository, type ImageRow } from '../storage/repositories/image.repository.js';

export interface StoredImage {
  id: number;
  publicId: string;
  blobKey: string;
}

const CONTENT_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', tiff: 'image/tiff', gif: 'image/gif', heif: 'image/heif',
};

/** Stores images and hands out absolute, unguessable, expiring URLs for them that need no API
 * token (so a webhook receiver or an e-mail can show them). Deleting the image revokes them. */
export class ImageService {
  constructor(
    private readonly images: ImageRepository,
    private readonly blobs: BlobStore,
    private readonly options: { publicUrl: string; secret: string; ttlSeconds: number; maxPixels: number },
  ) {}

  /** Validates (header only) and stores an image under `keyPrefix`. Throws ImageDecodeError.
   * Pass the images repository of the caller's unit of work to record the image inside it. */
  async store(accountId: number, bytes: Buffer, keyPrefix: string, now = Date.now(), into?: ImageRepository): Promise<StoredImage & { width: number; height: number }> {
    const info = await probeImage(bytes, this.options.maxPixels);
    const publicId = randomBytes(16).toString('base64url');
    const ext = info.format === 'jpeg' ? 'jpg' : info.format;
    const blobKey = `${keyPrefix}/${publicId}.${ext}`;
    await this.blobs.put(blobKey, bytes);
    const repo = into ?? this.images;
    const row = await repo.create({
      public_id: publicId, account_id: accountId, blob_key: blobKey, content_type: CONTENT_TYPES[info.format] ?? 'application/octet-stream',
      byte_size: bytes.length, width: info.width, height: info.height, created_at: now,
    });
    return { id: row.id, publicId, blobKey, width: info.width, height: info.height };
  }

  /** Removes the bytes of an image whose row was never committed (the caller's transaction
   * failed after store()); best effort, a leftover file only costs space. */
  async discard(stored: Pick<StoredImage, 'blobKey'>): Promise<void> {
    await this.blobs.delete(stored.blobKey).catch(() => undefined);
  }

  async bytesOf(imageId: number): Promise<Buffer | undefined> {
    const row = await this.images.findById(imageId);
    return row && this.blobs.get(row.blob_key);
  }

  url(publicId: string, now = Date.now()): string {
    // Expiry rounded up to the hour: the same image gets the same URL for an hour, so browsers
    // and dashboards can cache it, and every URL still lives at least the configured TTL.
    const expires = Math.ceil((Math.floor(now / 1000) + this.options.ttlSeconds) / 3600) * 3600;
    return `${this.options.publicUrl}/v1/images/${publicId}?expires=${expires}&signature=${this.sign(publicId, expires)}`;
  }

  async urlOfId(imageId: number | null): Promise<string | null> {
    if (imageId === null) return null;
    const row = await this.images.findById(imageId);
    return row ? this.url(row.public_id) : null;
  }

  /** `urlOfId` for a list, in one query: the URLs in the order of `imageIds`. */
  async urlsOfIds(imageIds: ReadonlyArray<number | null>): Promise<Array<string | null>> {
    const publicIds = await this.images.publicIdsOf(imageIds.filter((id): id is number => id !== null));
    return imageIds.map((id) => {
      const publicId = id === null ? undefined : publicIds.get(id);
      return publicId === undefined ? null : this.url(publicId);
    });
  }

  /** The image behind a signed URL, or undefined when the signature is wrong, expired or the
   * image is gone. */
  async open(publicId: string, expires: number, signature: string, now = Date.now()): Promise<{ row: ImageRow; bytes: Buffer } | undefined> {
    if (!Number.isInteger(expires) || expires * 1000 < now) return undefined;
    const expected = Buffer.from(this.sign(publicId, expires));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const row = await this.images.findByPublicId(publicId);
    if (!row) return undefined;
    const bytes = await this.blobs.get(row.blob_key);
    return bytes && { row, bytes };
  }

  /** Removes one image and its bytes, if it is still there. */
  async removeById(imageId: number): Promise<void> {
    const row = await this.images.findById(imageId);
    if (row) await this.remove([row]);
  }

  /** Every image of the account, for removing it (see AccountService.remove). */
  ofAccount(accountId: number): Promise<Array<Pick<ImageRow, 'id' | 'blob_key'>>> {
    return this.images.keysForAccount(accountId);
  }

  /** Removes images and their bytes. */
  async remove(rows: Array<Pick<ImageRow, 'id' | 'blob_key'>>): Promise<void> {
    await this.images.deleteByIds(rows.map((r) => r.id));
    for (const r of rows) await this.blobs.delete(r.blob_key);
  }

  private sign(publicId: string, expires: number): string {
    return createHmac('sha256', this.options.secret).update(`${publicId}.${expires}`).digest('base64url');
  }
}
