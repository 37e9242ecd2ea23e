import { readFile } from 'node:fs/promises';
import sharp from 'sharp';

/** How the plate benches store a photo again before reading it (all off: the file as it is). */
export interface CopyOptions {
  /** Resampled (lanczos, larger or smaller) so its longer side is this many pixels. */
  longSide?: number;
  /** Stored again as a JPEG of this quality (default 92 whenever a copy is made). */
  jpegQuality?: number;
  /** Stored again as a grey JPEG, as an infrared camera takes it at night. */
  grey?: boolean;
}

/** The photo as a bench reads it, and how much larger than the labeled one. */
export async function photoCopy(file: string, options: CopyOptions = {}): Promise<{ bytes: Buffer; scale: number }> {
  const bytes = await readFile(file);
  const { longSide = 0, jpegQuality = 0, grey = false } = options;
  if (!(longSide > 0) && !(jpegQuality > 0) && !grey) return { bytes, scale: 1 };
  const upright = sharp(bytes).rotate();
  const sized = longSide > 0 ? upright.resize(longSide, longSide, { fit: 'inside', kernel: 'lanczos3' }) : upright;
  const { data, info } = await (grey ? sized.grayscale() : sized).jpeg({ quality: jpegQuality || 92 }).toBuffer({ resolveWithObject: true });
  const meta = await sharp(bytes).metadata();
  return { bytes: data, scale: Math.max(info.width, info.height) / Math.max(meta.width ?? 1, meta.height ?? 1) };
}

/** `--long-side N`, `--jpeg-quality Q` and `--grey` from the command line. */
export function copyOptionsFromArgs(flag: (name: string) => string | undefined, argv: readonly string[] = process.argv): CopyOptions {
  return { longSide: Number(flag('long-side') ?? 0), jpegQuality: Number(flag('jpeg-quality') ?? 0), grey: argv.includes('--grey') };
}

/** What the copies are, for a bench's header line ('' for the files as they are). */
export function describeCopies({ longSide = 0, jpegQuality = 0, grey = false }: CopyOptions): string {
  if (!(longSide > 0) && !(jpegQuality > 0) && !grey) return '';
  return `${longSide ? `, photos resampled to a ${longSide} px longer side` : ''}, stored again as ${grey ? 'a grey ' : ''}JPEG q${jpegQuality || 92}`;
}
