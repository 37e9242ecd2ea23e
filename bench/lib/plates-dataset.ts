import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Datasets are read by path, never copied into the repo (their licenses differ); by default
 * `shared` beside the checkout, wherever the bench is started from (as the other benches). */
export const DEFAULT_DATA_DIR = path.resolve(import.meta.dirname, '../../../shared/datasets');

export interface PlateBox { xmin: number; ymin: number; xmax: number; ymax: number }

export interface PlateSceneItem {
  /** Absolute path of the photo. */
  file: string;
  region: 'us' | 'eu' | 'br';
  plate: string;
  box: PlateBox;
  width: number;
  height: number;
}

export interface PlateCropItem {
  file: string;
  /** Two-letter US state, lower case. */
  state: string;
  plate: string;
}

interface Manifest<T> { name: string; count: number; items: T[] }

/** `--data DIR` from argv, else the shared default (relative to the working directory). */
export function dataDirFromArgs(argv: readonly string[] = process.argv.slice(2)): string {
  const i = argv.indexOf('--data');
  const eq = argv.find((a) => a.startsWith('--data='));
  const dir = eq ? eq.slice('--data='.length) : i >= 0 ? argv[i + 1] : undefined;
  return path.resolve(dir ?? DEFAULT_DATA_DIR);
}

async function manifest<T>(dir: string): Promise<Manifest<T>> {
  return JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest<T>;
}

export async function loadPlateScenes(dataDir: string): Promise<PlateSceneItem[]> {
  const dir = path.join(dataDir, 'plates-scenes');
  const m = await manifest<{ file: string; region: PlateSceneItem['region']; plate: string; box_xywh: [number, number, number, number]; width: number; height: number }>(dir);
  return m.items.map((it) => {
    const [x, y, w, h] = it.box_xywh;
    return { file: path.join(dir, it.file), region: it.region, plate: it.plate, width: it.width, height: it.height, box: { xmin: x, ymin: y, xmax: x + w, ymax: y + h } };
  });
}

export async function loadPlateCrops(dataDir: string): Promise<PlateCropItem[]> {
  const dir = path.join(dataDir, 'plates-crops-us');
  const m = await manifest<{ file: string; state: string; plate: string }>(dir);
  return m.items.map((it) => ({ file: path.join(dir, it.file), state: it.state.toLowerCase(), plate: it.plate }));
}

/** One labeled plate of a bench set. */
export interface PlateSample {
  /** us, eu, br for scenes; us for crops. */
  region: string;
  file: string;
  plate: string;
  /** Labeled plate box (scenes only). */
  box?: PlateBox;
  /** The US state whose plate it is, lower case (crops only). */
  state?: string;
}

/** Half of each dev set may train Vigil's models, the other half gives the figures quoted for
 * them. Files go to a side by a hash of their contents (their names all hash to one side), the
 * same rule as training/vigil_train/splits.py: the first byte of the SHA-1, even for `fit`. */
export type DevSplit = 'fit' | 'held' | 'all';
export const DEV_SPLITS: readonly DevSplit[] = ['held', 'fit', 'all'];

export async function splitOf(file: string): Promise<'fit' | 'held'> {
  const digest = createHash('sha1').update(await readFile(file)).digest();
  return digest[0]! % 2 === 0 ? 'fit' : 'held';
}

/** The bench's sets: `scenes-us`, `scenes-eu`, `scenes-br` (whole photos) and `crops-us`; with
 * `split`, only the files of that side (see DevSplit). */
export async function loadPlateSets(dataDir: string, split: DevSplit = 'all'): Promise<Record<string, PlateSample[]>> {
  const all = await loadAllPlateSets(dataDir);
  if (split === 'all') return all;
  const out: Record<string, PlateSample[]> = {};
  for (const [name, samples] of Object.entries(all)) {
    const sides = await Promise.all(samples.map((s) => splitOf(s.file)));
    out[name] = samples.filter((_, i) => sides[i] === split);
  }
  return out;
}

async function loadAllPlateSets(dataDir: string): Promise<Record<string, PlateSample[]>> {
  const scenes = await loadPlateScenes(dataDir);
  const crops = await loadPlateCrops(dataDir);
  const out: Record<string, PlateSample[]> = {};
  for (const r of ['us', 'eu', 'br'] as const) {
    out[`scenes-${r}`] = scenes.filter((s) => s.region === r).map(({ file, region, plate, box }) => ({ file, region, plate, box }));
  }
  out['crops-us'] = crops.map(({ file, plate, state }) => ({ file, region: 'us', plate, state }));
  return out;
}
