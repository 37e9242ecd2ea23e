import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { quadBounds } from '../../src/vision/image/quad.js';
import type { PlateBox } from './plates-dataset.js';

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
  /** Turned this many degrees (clockwise for a positive angle) before any resampling, on a canvas
   * grown to hold the whole photo (grey corners): a plate photographed crooked, by a phone held
   * askew or a camera mounted on a slant. */
  tilt?: number;
}

/** A bench's copy of a photo: its bytes, how much larger than the labeled photo, and where a
 * labeled box lies in it (with a tilt, the upright box around the box's turned corners). */
export interface PhotoCopy {
  bytes: Buffer;
  scale: number;
  place(box: PlateBox): PlateBox;
}

const TILT_FILL = { r: 128, g: 128, b: 128 };

/** The photo as a bench reads it, how much larger than the labeled one, and where its labeled
 * box lies. */
export async function photoCopy(file: string, options: CopyOptions = {}): Promise<PhotoCopy> {
  const bytes = await readFile(file);
  const { longSide = 0, jpegQuality = 0, grey = false, frame, tilt = 0 } = options;
  if (!(longSide > 0) && !(jpegQuality > 0) && !grey && !frame && !tilt) return { bytes, scale: 1, place: (b) => b };
  const meta = await sharp(bytes).metadata();
  const rotated = (meta.orientation ?? 1) >= 5;
  const width = (rotated ? meta.height : meta.width) ?? 1;
  const height = (rotated ? meta.width : meta.height) ?? 1;
  const upright = tilt ? sharp(await sharp(bytes).rotate().rotate(tilt, { background: TILT_FILL }).png({ compressionLevel: 1 }).toBuffer()) : sharp(bytes).rotate();
  const turn = turnedBoxes(width, height, tilt);
  const box = frame ?? (longSide > 0 ? { width: longSide, height: longSide } : undefined);
  const sized = box ? upright.resize(box.width, box.height, { fit: 'inside', kernel: 'lanczos3' }) : upright;
  const { data, info } = await (grey ? sized.grayscale() : sized).jpeg({ quality: jpegQuality || 92 }).toBuffer({ resolveWithObject: true });
  const scale = Math.max(info.width, info.height) / Math.max(turn.width, turn.height);
  return {
    bytes: data,
    scale,
    place: (b) => {
      const t = turn.place(b);
      return { xmin: t.xmin * scale, ymin: t.ymin * scale, xmax: t.xmax * scale, ymax: t.ymax * scale };
    },
  };
}

/** A `width` x `height` photo turned `degrees` clockwise on a canvas grown to hold it, as libvips
 * turns it: the canvas's size, and where a box of the photo lies on it (the upright box around its
 * turned corners). */
export function turnedBoxes(width: number, height: number, degrees: number): { width: number; height: number; place(b: PlateBox): PlateBox } {
  if (!degrees) return { width, height, place: (b) => b };
  const t = (degrees * Math.PI) / 180;
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  const w = Math.abs(width * cos) + Math.abs(height * sin);
  const h = Math.abs(width * sin) + Math.abs(height * cos);
  // Clockwise on screen (y down): (x, y) about the centre goes to (x cos - y sin, x sin + y cos).
  const turn = (x: number, y: number) => {
    const dx = x - width / 2;
    const dy = y - height / 2;
    return { x: w / 2 + dx * cos - dy * sin, y: h / 2 + dx * sin + dy * cos };
  };
  return {
    width: Math.round(w),
    height: Math.round(h),
    place: (b) => {
      const { x0, y0, x1, y1 } = quadBounds([turn(b.xmin, b.ymin), turn(b.xmax, b.ymin), turn(b.xmax, b.ymax), turn(b.xmin, b.ymax)]);
      return { xmin: x0, ymin: y0, xmax: x1, ymax: y1 };
    },
  };
}

/** `--long-side N`, `--frame WxH`, `--jpeg-quality Q`, `--grey` and `--tilt DEG` from the command line. */
export function copyOptionsFromArgs(flag: (name: string) => string | undefined, argv: readonly string[] = process.argv): CopyOptions {
  const tilt = Number(flag('tilt') ?? 0);
  if (!Number.isFinite(tilt) || Math.abs(tilt) > 45) throw new Error(`--tilt wants degrees from -45 to 45, got ${flag('tilt')}`);
  return { longSide: Number(flag('long-side') ?? 0), frame: parseFrame(flag('frame')), jpegQuality: Number(flag('jpeg-quality') ?? 0), grey: argv.includes('--grey'), tilt };
}

/** `1920x1080` as a frame; undefined for none. */
export function parseFrame(value: string | undefined): CopyOptions['frame'] {
  if (value === undefined) return undefined;
  const match = /^(\d+)x(\d+)$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) throw new Error(`--frame wants WIDTHxHEIGHT (1920x1080), got ${value}`);
  return { width: Number(match[1]), height: Number(match[2]) };
}

/** What the copies are, for a bench's header line ('' for the files as they are). */
export function describeCopies({ longSide = 0, jpegQuality = 0, grey = false, frame, tilt = 0 }: CopyOptions): string {
  if (!(longSide > 0) && !(jpegQuality > 0) && !grey && !frame && !tilt) return '';
  const turned = tilt ? `, photos turned ${tilt} degrees` : '';
  const size = frame ? `, photos resampled to fit ${frame.width} x ${frame.height}` : longSide ? `, photos resampled to a ${longSide} px longer side` : '';
  return `${turned}${size}, stored again as ${grey ? 'a grey ' : ''}JPEG q${jpegQuality || 92}`;
}
