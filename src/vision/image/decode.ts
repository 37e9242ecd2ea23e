import sharp, { type Metadata, type Sharp } from 'sharp';

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
  /** 'refuse' (default): a file whose data ends early is an error. 'read-what-decodes': decode it
   * anyway when at least MIN_DECODED_SHARE of its rows came out (recognition only: a progressive
   * JPEG cut short still has its whole frame, only less sharp; a camera must stay strict because
   * the grey fill would look like an obstruction). */
  truncated?: 'refuse' | 'read-what-decodes';
}

/** Share of an image's rows that must decode for a truncated file to be read. */
export const MIN_DECODED_SHARE = 0.75;

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
 * of animations). Truncated or corrupt data is an error, not a grey picture, unless
 * `truncated: 'read-what-decodes'` and most of the picture is there. */
export async function decodeImage(bytes: Buffer, options: DecodeOptions = {}): Promise<RawImage> {
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  await probeImage(bytes, maxPixels);
  try {
    return await decodePixels(bytes, maxPixels, options, 'truncated');
  } catch (err) {
    if (err instanceof ImageDecodeError) throw err;
    if (options.truncated !== 'read-what-decodes') throw corrupt();
  }
  // failOn 'truncated' is the laxest refusal short of none, so this retry relaxes truncation only.
  const img = await decodePixels(bytes, maxPixels, options, 'none').catch(() => {
    throw corrupt();
  });
  if (decodedShare(img) < MIN_DECODED_SHARE) {
    throw new ImageDecodeError('The image data is truncated: too little of the picture could be decoded.', 'unreadable');
  }
  return img;
}

/** Decodes a photo for recognition (OCR, plates): a file cut short is read when most of it
 * decodes, since a reading from most of a photo beats a 400 (see `truncated`). */
export function decodeForRecognition(bytes: Buffer, options: Omit<DecodeOptions, 'truncated'> = {}): Promise<RawImage> {
  return decodeImage(bytes, { ...options, truncated: 'read-what-decodes' });
}

const corrupt = () => new ImageDecodeError('The image data is corrupt or truncated.', 'unreadable');

/** sharp's prebuilt libvips reads HEIF headers but has no HEVC decoder, and HEVC is what every
 * iPhone photo holds: those are decoded by libheif compiled to WebAssembly (heic-decode), then
 * go through the same resizing as every other image. */
async function heicPixels(bytes: Buffer): Promise<Sharp> {
  const { default: decodeHeic } = await import('heic-decode');
  const { width, height, data } = await decodeHeic({ buffer: bytes });
  return sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { raw: { width, height, channels: 4 } });
}

/** Whether the file is HEVC-coded HEIF, from its `ftyp` box: the HEVC brands say so outright;
 * the generic ones (mif1, msf1: AVIF uses them too) are asked of the header. */
async function isHevc(bytes: Buffer): Promise<boolean> {
  if (bytes.length < 12 || bytes.toString('latin1', 4, 8) !== 'ftyp') return false;
  const brand = bytes.toString('latin1', 8, 12);
  if (['heic', 'heix', 'hevc', 'hevx'].includes(brand)) return true;
  if (brand !== 'mif1' && brand !== 'msf1') return false;
  const meta = await sharp(bytes, { limitInputPixels: false }).metadata().catch(() => undefined);
  return meta?.compression === 'hevc';
}

async function decodePixels(bytes: Buffer, maxPixels: number, options: DecodeOptions, failOn: 'truncated' | 'none'): Promise<RawImage> {
  let pipeline = (await isHevc(bytes)) ? await heicPixels(bytes) : sharp(bytes, { limitInputPixels: maxPixels, failOn, pages: 1 }).rotate();
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
}

/** Share of the picture outside the uniform fill a decoder writes where data ran out (JPEG
 * grey, PNG black): the widest band of flat rows or columns along any edge counts as missing
 * (the bottom of the stored image, but EXIF rotation can turn it to another edge). */
export function decodedShare(img: RawImage): number {
  const { width: w, height: h, channels: c, data } = img;
  if (w === 0 || h === 0) return 0;
  const flat = (len: number, at: (i: number) => number) => {
    const first = at(0);
    for (let i = 1; i < len; i++) if (Math.abs(at(i) - first) > 2) return false;
    return true;
  };
  const row = (y: number) => flat(w * c, (i) => data[y * w * c + i] ?? 0);
  const col = (x: number) => flat(h * c, (i) => data[(Math.floor(i / c) * w + x) * c + (i % c)] ?? 0);
  const band = (n: number, isFlat: (k: number) => boolean) => {
    let k = 0;
    while (k < n && isFlat(k)) k++;
    return k / n;
  };
  const missing = Math.max(
    band(h, (k) => row(h - 1 - k)), band(h, (k) => row(k)),
    band(w, (k) => col(w - 1 - k)), band(w, (k) => col(k)),
  );
  return 1 - missing;
}

/** The first of each pixel's `from` channels, repeated `to` times: grey made colour for callers that read RGB. */
export function expandChannels(data: Buffer, width: number, height: number, from: number, to: 1 | 3): RawImage {
  const out = Buffer.alloc(width * height * to);
  for (let i = 0, n = width * height; i < n; i++) {
    const v = data[i * from] ?? 0;
    if (to === 1) out[i] = v;
    else out[i * 3] = out[i * 3 + 1] = out[i * 3 + 2] = v;
  }
  return { data: out, width, height, channels: to };
}
