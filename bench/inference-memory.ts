/**
 * npm run bench:inference-memory [-- --rounds 3] [--limit 25] [--data DIR]
 *
 * INFERENCE_MEMORY=arena (default) against lean (with MALLOC_MMAP_THRESHOLD_=4194304, which lean
 * needs: src/vision/runtime/lean-memory.ts). glibc reads that variable once, at start, so each
 * setting runs in a fresh child process, alternately, `--rounds` times. Each child builds the
 * OCR engine and plate pipeline as a recognition worker does, reads the first `--limit` photos of
 * plates-scenes us (regular mode) and of containers-gate, then one 2,600 x 2,600 noise photo (the
 * bench:overload flood's worst case), and reports its median ms per photo and its RSS after each
 * part. Printed: the medians over rounds and lean / arena.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { decodeForRecognition } from '../src/vision/image/decode.js';
import { createOcrEngine } from '../src/vision/ocr/ocr-engine.js';
import { readText } from '../src/vision/ocr/readers/text-reader.js';
import { configuredPlatePipeline } from '../src/vision/plates/configured-pipeline.js';
import { LEAN_MEMORY_ENV, LEAN_MEMORY_THRESHOLD } from '../src/vision/runtime/lean-memory.js';
import type { PlateReadOptions } from '../src/vision/plates/plate.types.js';
import { defaultVisionSettings, type InferenceMemory, ocrEngineOptions, parseInferenceMemory } from '../src/vision/settings.js';
import { DEFAULT_DATA_DIR, loadPlateSets } from './lib/plates-dataset.js';
import { flag, median } from './lib/stats.js';

interface ChildReport { plateMs: number; containerMs: number; rssPlates: number; rssContainers: number; rssNoise: number }

const dataDir = flag('data', DEFAULT_DATA_DIR)!;
const limit = Number(flag('limit', '25'));
const rssMb = () => process.memoryUsage().rss / 1048576;

async function child(memory: InferenceMemory): Promise<ChildReport> {
  const settings = { ...defaultVisionSettings(), inferenceMemory: memory };
  const engine = await createOcrEngine(ocrEngineOptions(settings));
  const plates = await configuredPlatePipeline(engine, settings);
  const options: PlateReadOptions = { regions: [], strictRegion: false, textFormats: [], mode: 'normal', thresholdD: 0.2, thresholdO: 0.6, strictDetection: false, mmc: false };
  const scenes = (await loadPlateSets(dataDir))['scenes-us']!.slice(0, limit).map((s) => fs.readFileSync(s.file));
  const gateDir = path.join(dataDir, 'containers-gate');
  const gate = fs.readdirSync(gateDir).filter((f) => f.endsWith('.jpg')).sort().slice(0, limit).map((f) => fs.readFileSync(path.join(gateDir, f)));
  const timeEach = async (photos: Buffer[], read: (b: Buffer) => Promise<unknown>) => {
    await read(photos[0]!); // first use: sessions warm
    const ms: number[] = [];
    for (const p of photos) { const t = performance.now(); await read(p); ms.push(performance.now() - t); }
    return median(ms);
  };
  const plateMs = await timeEach(scenes, async (b) => plates.read(await decodeForRecognition(b), options));
  const rssPlates = rssMb();
  const containerMs = await timeEach(gate, async (b) => readText(engine, 'shipping_container', await decodeForRecognition(b, { maxSide: 2048 })));
  const rssContainers = rssMb();
  const n = 2600;
  const noise = Buffer.alloc(n * n * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  const jpeg = await sharp(noise, { raw: { width: n, height: n, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
  await plates.read(await decodeForRecognition(jpeg), options);
  await readText(engine, 'vin', await decodeForRecognition(jpeg, { maxSide: 2048 }));
  return { plateMs, containerMs, rssPlates, rssContainers, rssNoise: rssMb() };
}

function runChild(memory: InferenceMemory): Promise<ChildReport> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env[LEAN_MEMORY_ENV];
  if (memory === 'lean') env[LEAN_MEMORY_ENV] = LEAN_MEMORY_THRESHOLD;
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', memory, '--limit', String(limit), '--data', dataDir];
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as ChildReport) : reject(new Error(`child ${memory} exited ${code}`))));
  });
}

if (flag('child')) {
  console.log(JSON.stringify(await child(parseInferenceMemory(flag('child')))));
} else {
  const rounds = Number(flag('rounds', '3'));
  const reports: Record<InferenceMemory, ChildReport[]> = { arena: [], lean: [] };
  for (let r = 0; r < rounds; r++) {
    for (const memory of (r % 2 ? ['lean', 'arena'] : ['arena', 'lean']) as InferenceMemory[]) reports[memory].push(await runChild(memory));
  }
  const m = (memory: InferenceMemory, key: keyof ChildReport) => median(reports[memory].map((x) => x[key]));
  console.log(`inference memory, ${rounds} alternating rounds of fresh processes, first ${limit} photos per set`);
  for (const [key, label] of [['plateMs', 'scenes-us regular, ms per photo'], ['containerMs', 'containers-gate, ms per photo'], ['rssPlates', 'RSS MB after the plate photos'], ['rssContainers', 'RSS MB after the container photos'], ['rssNoise', 'RSS MB after a 2,600 px noise photo']] as const) {
    console.log(`  ${label.padEnd(38)} arena ${m('arena', key).toFixed(0).padStart(5)}  lean ${m('lean', key).toFixed(0).padStart(5)}  lean/arena ${(m('lean', key) / m('arena', key)).toFixed(2)}`);
  }
}
