/**
 * npm run bench:plates [-- --data DIR] [--limit N] [--sets scenes-us,crops-us] [--modes normal,fast] [--no-baseline] [--hint] [--misses] [--precision fp32|fused] [--threads N]
 *
 * Plate reading on ../shared/datasets/plates-scenes (us, eu, br photos) and plates-crops-us:
 * exact-match rate of the labeled plate among the results, the same treating O/0 and I/1 as
 * equal, top-1 rate (O/0-I/1 equal), false plates per image, median and p95 ms per image
 * (decode included, one image at a time; `cpu` is the process CPU time per image over all
 * threads, steadier than wall time when others share the cores) in regular and fast mode; beside them the raw PP-OCR
 * baseline (whole-image readLines, best matching token).
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { decodeImage } from '../src/vision/image/decode.js';
import { parseOcrPrecision } from '../src/vision/runtime/model-variants.js';
import { createOcrEngine } from '../src/vision/ocr/ocr-engine.js';
import { createPlatePipeline } from '../src/vision/plates/plate-pipeline.js';
import type { PlateReadOptions } from '../src/services/recognition/plate-reader.port.js';
import { DEFAULT_DATA_DIR, loadPlateSets } from './lib/plates-dataset.js';
import { exactKey, formatRow, iou, looseKey, type SampleOutcome, summarise } from './lib/plates-bench-metrics.js';
import { flag } from './lib/stats.js';

const dataDir = flag('data', DEFAULT_DATA_DIR)!;
const limit = Number(flag('limit', '0'));
const wantedSets = flag('sets')?.split(',');
const modes = (flag('modes', 'normal,fast')!.split(',')) as Array<PlateReadOptions['mode']>;
const baseline = !process.argv.includes('--no-baseline');
const hint = process.argv.includes('--hint');
const showMisses = process.argv.includes('--misses');

const sets = await loadPlateSets(dataDir);
// --precision fp32|fused: which graph the OCR models run (default: OCR_PRECISION, else fused).
// --threads N: onnxruntime intra-op threads per session (default: INFERENCE_THREADS, else cores).
const threads = Number(flag('threads') ?? process.env.INFERENCE_THREADS) || undefined;
const ocr = await createOcrEngine({ precision: parseOcrPrecision(flag('precision') ?? process.env.OCR_PRECISION), intraOpNumThreads: threads });
const pipeline = createPlatePipeline(ocr);

const options = (mode: PlateReadOptions['mode'], region: string): PlateReadOptions => ({
  regions: hint && region !== 'eu' ? [region] : [], strictRegion: false, textFormats: [], mode,
  thresholdD: 0.2, thresholdO: 0.6, strictDetection: false, mmc: false,
});

console.log(`plates bench: ${os.cpus().length} cores, ${threads ?? 'default'} intra-op threads, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, regions hint ${hint ? 'on' : 'off'}`);
for (const [name, all] of Object.entries(sets)) {
  if (wantedSets && !wantedSets.includes(name)) continue;
  const samples = limit > 0 ? all.slice(0, limit) : all;
  const bytes = await Promise.all(samples.map((s) => readFile(s.file)));
  // Warm-up: first runs allocate the sessions' buffers.
  await pipeline.read(await decodeImage(bytes[0]!), options('normal', samples[0]!.region));
  for (const mode of modes) {
    const outcomes: SampleOutcome[] = [];
    for (let i = 0; i < samples.length; i++) {
      const t = performance.now();
      const c = process.cpuUsage();
      const img = await decodeImage(bytes[i]!);
      const res = await pipeline.read(img, options(mode, samples[i]!.region));
      const ms = performance.now() - t;
      const used = process.cpuUsage(c);
      const cpuMs = (used.user + used.system) / 1000;
      const label = samples[i]!.plate;
      const hit = res.plates.find((p) => looseKey(p.plate) === looseKey(label));
      const box = samples[i]!.box;
      outcomes.push({ label, plates: res.plates.map((p) => p.plate), ms, cpuMs, iou: hit && box ? iou(hit.box, box) : undefined });
    }
    console.log(formatRow(`${name} ${mode}`, summarise(outcomes)));
    if (showMisses) {
      for (const o of outcomes) if (!o.plates.some((p) => looseKey(p) === looseKey(o.label))) console.log(`  miss ${o.label}: ${o.plates.join(' ') || '-'}`);
    }
  }
  if (baseline) {
    const outcomes: SampleOutcome[] = [];
    for (let i = 0; i < samples.length; i++) {
      const t = performance.now();
      const c = process.cpuUsage();
      const img = await decodeImage(bytes[i]!);
      const lines = await ocr.readLines(img);
      const ms = performance.now() - t;
      const used = process.cpuUsage(c);
      const cpuMs = (used.user + used.system) / 1000;
      // Best matching token: every line and every space-separated piece, alphanumerics only.
      const tokens = lines.flatMap((l) => [l.text, ...l.text.split(/\s+/)]).map(exactKey).filter((s) => s.length > 0);
      const label = samples[i]!.plate;
      const hit = tokens.find((tk) => tk === exactKey(label)) ?? tokens.find((tk) => looseKey(tk) === looseKey(label));
      outcomes.push({ label, plates: hit ? [hit] : [], ms, cpuMs });
    }
    const s = summarise(outcomes);
    console.log(`${`${name} raw PP-OCR`.padEnd(28)} n=${String(s.n).padStart(3)}  exact ${(s.exact * 100).toFixed(1).padStart(5)}%  O0/I1 ${(s.loose * 100).toFixed(1).padStart(5)}%  median ${s.medianMs.toFixed(0).padStart(4)} ms  p95 ${s.p95Ms.toFixed(0).padStart(4)} ms  cpu ${s.medianCpuMs.toFixed(0).padStart(4)} ms`);
  }
}
