import sharp from 'sharp';
import type { BlobStore } from '../../storage/blobs/blob-store.js';
import type { ImageRepository } from '../../storage/repositories/image.repository.js';

export const THUMBNAIL_WIDTH = 320;
/** Recently made thumbnails kept in memory (about 15 KB each). */
const CACHE_ENTRIES = 300;

export interface Thumbnail {
  bytes: Buffer;
  /** Stable: an image's bytes never change under its public id. */
  etag: string;
}

/** The small JPEGs the cameras grid and the alerts list show instead of full-size images,
 * made on demand (browsers keep them: they never change) and only for the image's account. */
export class ThumbnailService {
  private readonly cache = new Map<string, Buffer>();

  constructor(private readonly images: Pick<ImageRepository, 'findByPublicId'>, private readonly blobs: BlobStore, private readonly options: { maxPixels: number }) {}

  static etagOf(publicId: string): string {
    return `"t${THUMBNAIL_WIDTH}-${publicId}"`;
  }

  /** Whether the account owns the image (what a conditional request needs, without the bytes). */
  async owns(accountId: number, publicId: string): Promise<boolean> {
    return (await this.ownedRow(accountId, publicId)) !== undefined;
  }

  /** undefined when the image is not the account's, is gone or cannot be decoded. */
  async of(accountId: number, publicId: string): Promise<Thumbnail | undefined> {
    const row = await this.ownedRow(accountId, publicId);
    if (!row) return undefined;
    const etag = ThumbnailService.etagOf(publicId);
    const cached = this.cache.get(publicId);
    if (cached) {
      // Least recently used goes first: re-insert to mark it used.
      this.cache.delete(publicId);
      this.cache.set(publicId, cached);
      return { bytes: cached, etag };
    }
    const original = await this.blobs.get(row.blob_key);
    if (!original) return undefined;
    const bytes = await sharp(original, { limitInputPixels: this.options.maxPixels, failOn: 'none', pages: 1 })
      .rotate()
      .resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true })
      .jpeg({ quality: 75 })
      .toBuffer()
      .catch(() => undefined);
    if (!bytes) return undefined;
    this.cache.set(publicId, bytes);
    if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    return { bytes, etag };
  }

  /** The image's row when it is the account's (no lookup for an id longer than ours). */
  private async ownedRow(accountId: number, publicId: string) {
    if (publicId.length > 64) return undefined;
    const row = await this.images.findByPublicId(publicId);
    return row && Number(row.account_id) === accountId ? row : undefined;
  }
}
