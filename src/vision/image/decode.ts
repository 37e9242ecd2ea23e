import sharp, { type Metadata } from 'sharp';

/** Formats a camera or a client can reasonably send. SVG and PDF are refused: they can reference
 * external files and are not photographs. */
export const ACCEPTED_FORMATS = ['jpeg', 'png', 'webp', 'tiff', 'gif', 'heif'] as const;

/** Default ceiling on decoded pixels (about 50 megapixels) so a small file that inflates to a
 * huge bitmap (a decompression bomb) is refused before it is decoded. */
export const DEFAULT_MAX_PIXELS = 50_000_000;

export class ImageDecodeError extends Error {
  constructor(
    message: string,
    readonly reason: 'empty' | 'unreadable' | 'unsupported_format' | 'too_large' | 'too_small',
  ) {
    super(message);
    this.name = 'ImageDecodeError';
  }
}

export interface ImageInfo {
  format: (typeof ACCEPTED_FORMATS)[number];
  /** Width and height after EXIF orientation is applied. */
  width: number;
  height: number;
}

export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 3;
}

export interface DecodeOptions {
  maxPixels?: number;
  /** Shrink so the longer side is at most this many pixels (never enlarges). */
  maxSide?: number;
  grayscale?: boolean;
}

/** Reads the header only: cheap validation for uploads before they are stored. */
export async function probeImage(bytes: Buffer, maxPixels = DEFAULT_MAX_PIXELS): Promise<ImageInfo> {
  if (bytes.length === 0) throw new ImageDecodeError('The file is empty.', 'empty');
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageDecodeError('The file is not a readable image.', 'unreadable');
  }
  const format = meta.format as ImageInfo['format'];
  if (!ACCEPTED_FORMATS.includes(format)) {
    throw new ImageDecodeError(
      `Unsupported image format${meta.format ? ` "${meta.format}"` : ''}; send JPEG, PNG, WebP, TIFF, GIF or HEIF.`,
      'unsupported_format',
    );
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width < 1 || height < 1) throw new ImageDecodeError('The image has no pixels.', 'unreadable');
  if (width * height > maxPixels) {
    throw new ImageDecodeError(
      `The image is ${width}x${height} pixels; at most ${maxPixels} pixels are accepted.`,
      'too_large',
    );
  }
  const rotated = (meta.orientation ?? 1) >= 5;
  return { format, width: rotated ? height : width, height: rotated ? width : height };
}

/** Fully decodes an image to raw pixels (EXIF orientation applied, alpha dropped, first frame
 * of animations). Truncated or corrupt data is an error, not a grey picture. */
export async function decodeImage(bytes: Buffer, options: DecodeOptions = {}): Promise<RawImage> {
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  await probeImage(bytes, maxPixels);
  try {
    let pipeline = sharp(bytes, { limitInputPixels: maxPixels, failOn: 'truncated', pages: 1 }).rotate();
    if (options.maxSide) {
      pipeline = pipeline.resize(options.maxSide, options.maxSide, { fit: 'inside', withoutEnlargement: true });
    }
    pipeline = options.grayscale ? pipeline.grayscale() : pipeline.toColourspace('srgb');
    const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const channels = options.grayscale ? 1 : 3;
    if (info.channels !== channels) {
      // A grayscale source stays one channel through toColourspace; expand it for callers
      // that asked for colour.
      return expandChannels(data, info.width, info.height, info.channels, channels);
    }
    return { data, width: info.width, height: info.height, channels };
  } catch (err) {
    if (err instanceof ImageDecodeError) throw err;
    throw new ImageDecodeError('The image data is corrupt or truncated.', 'unreadable');
  }
}

function expandChannels(data: Buffer, width: number, height: number, from: number, to: 1 | 3): RawImage {
  const out = Buffer.alloc(width * height * to);
  for (let i = 0, n = width * height; i < n; i++) {
    const v = data[i * from] ?? 0;
    if (to === 1) out[i] = v;
    else out[i * 3] = out[i * 3 + 1] = out[i * 3 + 2] = v;
  }
  return { data: out, width, height, channels: to };
}
