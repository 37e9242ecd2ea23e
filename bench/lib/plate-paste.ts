import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { loadPlateSets, type PlateBox, type PlateSample } from './plates-dataset.js';

/**
 * Real US plates at a camera's size and place: each plates-crops-us crop pasted over the labeled
 * plate of a plates-scenes photo, the photo resampled to fit a 1080p frame first. plates-scenes
 * holds 63 held US plates, too few to tell a reader round from noise (a plate is 1.6%); the held
 * crops are 195 more, which alone the scene pipeline never reads (a crop goes the text passes'
 * way). The background's own plate is blurred away first (its box and a tenth around it: a
 * narrower US plate left a European one's characters showing at either side, read into the
 * number), then the crop is scaled to the labeled box's width, or kept at its own size where
 * that would enlarge it, and centred on the box. So every photo of every region serves.
 * `scale` shrinks the pasted plate further (0.5: a car twice as far off, the plates the
 * scene sets' misses are made of).
 */
export async function pastedScene(crop: PlateSample, background: PlateSample, { frame = { width: 1920, height: 1080 }, scale = 1 } = {}): Promise<{ bytes: Buffer; box: PlateBox }> {
  if (!background.box) throw new Error(`${background.file}: a background needs a labeled plate box`);
  const source = await readFile(background.file);
  const meta = await sharp(source).metadata();
  const scene = await sharp(source).rotate().resize(frame.width, frame.height, { fit: 'inside', kernel: 'lanczos3' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const k = Math.max(scene.info.width, scene.info.height) / Math.max(meta.width ?? 1, meta.height ?? 1);
  const grown = growBox(background.box, k, 0.1, scene.info);
  const blurred = await sharp(scene.data, { raw: scene.info }).extract(grown).blur(Math.max(3, grown.height / 4)).raw().toBuffer();
  const plate = sharp(await readFile(crop.file)).rotate();
  const own = await plate.metadata();
  const width = Math.max(8, Math.round(scale * Math.min(own.width ?? 1, (background.box.xmax - background.box.xmin) * k)));
  const pasted = await plate.resize({ width, kernel: 'lanczos3' }).toBuffer({ resolveWithObject: true });
  const clamp = (v: number, room: number) => Math.max(0, Math.min(room, Math.round(v)));
  const left = clamp(((background.box.xmin + background.box.xmax) / 2) * k - pasted.info.width / 2, scene.info.width - pasted.info.width);
  const top = clamp(((background.box.ymin + background.box.ymax) / 2) * k - pasted.info.height / 2, scene.info.height - pasted.info.height);
  const bytes = await sharp(scene.data, { raw: scene.info })
    .composite([{ input: blurred, raw: { width: grown.width, height: grown.height, channels: scene.info.channels }, left: grown.left, top: grown.top }, { input: pasted.data, left, top }])
    .jpeg({ quality: 92 }).toBuffer();
  return { bytes, box: { xmin: left, ymin: top, xmax: left + pasted.info.width, ymax: top + pasted.info.height } };
}

/** `box` scaled by `k` and grown by `share` of its size at each side, inside the picture. */
function growBox(box: PlateBox, k: number, share: number, size: { width: number; height: number }) {
  const dx = share * (box.xmax - box.xmin) * k, dy = share * (box.ymax - box.ymin) * k;
  const left = Math.max(0, Math.floor(box.xmin * k - dx)), top = Math.max(0, Math.floor(box.ymin * k - dy));
  const right = Math.min(size.width, Math.ceil(box.xmax * k + dx)), bottom = Math.min(size.height, Math.ceil(box.ymax * k + dy));
  return { left, top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
}

/** Each crop with a background, the scenes in turn (sorted by file, so a run is repeatable). */
export function backgroundsFor<T>(crops: readonly PlateSample[], scenes: readonly T[]): Array<[PlateSample, T]> {
  return crops.map((c, i) => [c, scenes[i % scenes.length]!]);
}

/** --paste-scale S (bench:plates, bench:plates-ab): the pasted plates at that share of their
 * size, as a car farther off shows them; default 1. */
export function pasteScaleOption(value: string | undefined): number {
  const scale = Number(value ?? '1');
  if (!(scale > 0 && scale <= 1)) throw new Error('--paste-scale wants a share of the plate\'s size, over 0 and at most 1');
  return scale;
}

/** The set's name in --sets (bench:plates, bench:plates-ab). */
export const PASTED_SET = 'pasted-us';

/** pasted-us: `crops` (a split's crops-us plates) pasted over the plates of plates-scenes photos
 * of every region and split, at 1080p; each sample's box is where its plate went. */
export async function pastedSet(dataDir: string, crops: readonly PlateSample[], scale = 1): Promise<Array<{ sample: PlateSample; bytes: Buffer }>> {
  const everyScene = Object.entries(await loadPlateSets(dataDir, 'all')).filter(([name]) => name.startsWith('scenes-')).flatMap(([, s]) => s)
    .sort((a, b) => a.file.localeCompare(b.file));
  return Promise.all(backgroundsFor(crops, everyScene).map(async ([crop, background]) => {
    const { bytes, box } = await pastedScene(crop, background, { scale });
    return { sample: { ...crop, box }, bytes };
  }));
}
