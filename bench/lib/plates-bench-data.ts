import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface PlateSample {
  set: string;
  /** us, eu, br for scenes; us for crops. */
  region: string;
  file: string;
  plate: string;
  box?: { xmin: number; ymin: number; xmax: number; ymax: number };
}

interface Manifest {
  items: Array<{ file: string; plate: string; region?: string; box_xywh?: [number, number, number, number] }>;
}

/** plates-scenes (one labeled plate per photo) and plates-crops-us (tight crops). */
export async function loadPlateSets(dataDir: string): Promise<Record<string, PlateSample[]>> {
  const load = async (folder: string, name: string, region?: string) => {
    const dir = path.join(dataDir, folder);
    const m = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
    return m.items.map((it) => ({
      set: name, region: region ?? it.region ?? 'us', file: path.join(dir, it.file), plate: it.plate,
      box: it.box_xywh && { xmin: it.box_xywh[0], ymin: it.box_xywh[1], xmax: it.box_xywh[0] + it.box_xywh[2], ymax: it.box_xywh[1] + it.box_xywh[3] },
    }));
  };
  const scenes = await load('plates-scenes', 'scenes');
  const crops = await load('plates-crops-us', 'crops', 'us');
  const out: Record<string, PlateSample[]> = {};
  for (const r of ['us', 'eu', 'br']) out[`scenes-${r}`] = scenes.filter((s) => s.region === r);
  out['crops-us'] = crops;
  return out;
}
