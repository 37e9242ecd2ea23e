import { readFile } from 'node:fs/promises';
import sharp from 'sharp';

/** How the plate benches store a photo again before reading it (all off: the file as it is). */
export interface CopyOptions {
  /** Resampled (lanczos, larger or smaller) so its longer side is this many pixels. */
  longSide?: number;
  /** Resampled (lanczos, larger or smaller) to fit inside this frame: what a camera of that
   * resolution holds of the scene (1920 x 1080: a square photo becomes 1080 x 1080, where
   * `longSide` 1920 makes it 1920 x 1920, 1.8 times a 1080p frame's pixels). */
  frame?: { width: number; height: number };
  /** Stored again as a JPEG of this quality (default 92 whenever a copy is made). */
  jpegQuality?: number;
  /** Stored again as a grey JPEG, as an infrared camera takes it at night. */
  grey?: boolean;
}

/** The photo as a bench reads it, and how much larger than the labeled one. */
export async function photoCopy(file: string, options: CopyOptions = {}): Promise<{ bytes: Buffer; scale: number }> {
  const bytes = await readFile(file);
  const { longSide = 0, jpegQuality = 0, grey = false, frame } = options;
  if (!(longSide > 0) && !(jpegQuality > 0) && !grey && !frame) return { bytes, scale: 1 };
  const upright = sharp(bytes).rotate();
  const box = frame ?? (longSide > 0 ? { width: longSide, height: longSide } : undefined);
  const sized = box ? upright.resize(box.width, box.height, { fit: 'inside', kernel: 'lanczos3' }) : upright;
  const { data, info } = await (grey ? sized.grayscale() : sized).jpeg({ quality: jpegQuality || 92 }).toBuffer({ resolveWithObject: true });
  const meta = await sharp(bytes).metadata();
  return { bytes: data, scale: Math.max(info.width, info.height) / Math.max(meta.width ?? 1, meta.height ?? 1) };
}

/** `--long-side N`, `--frame WxH`, `--jpeg-quality Q` and `--grey` from the command line. */
export function copyOptionsFromArgs(flag: (name: string) => string | undefined, argv: readonly string[] = process.argv): CopyOptions {
  return { longSide: Number(flag('long-side') ?? 0), frame: parseFrame(flag('frame')), jpegQuality: Number(flag('jpeg-quality') ?? 0), grey: argv.includes('--grey') };
}

/** `1920x1080` as a frame; undefined for none. */
export function parseFrame(value: string | undefined): CopyOptions['frame'] {
  if (value === undefined) return undefined;
  const match = /^(\d+)x(\d+)$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) throw new Error(`--frame wants WIDTHxHEIGHT (1920x1080), got ${value}`);
  return { width: Number(match[1]), height: Number(match[2]) };
}

/** What the copies are, for a bench's header line ('' for the files as they are). */
export function describeCopies({ longSide = 0, jpegQuality = 0, grey = false, frame }: CopyOptions): string {
  if (!(longSide > 0) && !(jpegQuality > 0) && !grey && !frame) return '';
  const size = frame ? `, photos resampled to fit ${frame.width} x ${frame.height}` : longSide ? `, photos resampled to a ${longSide} px longer side` : '';
  return `${size}, stored again as ${grey ? 'a grey ' : ''}JPEG q${jpegQuality || 92}`;
}
