/**
 * npm run bench:camera-speed [-- --runs 200 --image FILE]
 *
 * Median milliseconds of one camera analysis of a 1280x720 JPEG on one core (decode included,
 * reference prepared once as the service caches it), next to the median of decoding that JPEG
 * alone in the same run. The npm script pins libuv and sharp to one thread.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { analyzeAgainstReference, analyzeWithPrepared, prepareReference } from '../src/vision/camera-health/index.js';
import { sceneJpeg } from '../test/fixtures/images.js';
import { flag, fmt, median, percentile } from './lib/stats.js';

sharp.concurrency(1);
const runs = Number(flag('runs', '200'));
const data = flag('data', path.resolve(import.meta.dirname, '../../shared/datasets'))!;
const clip = path.join(data, 'camera-tamper-clips/frames/Occlusion');

/** A tampered frame too: it takes the longer path (local motion search). */
function tamperedFrame(): Buffer | undefined {
  const f = path.join(data, 'camera-tamper-clips/frames/Displacement/030.jpg');
  return fs.existsSync(f) ? fs.readFileSync(f) : undefined;
}

async function frames(): Promise<{ ref: Buffer; img: Buffer; source: string }> {
  const file = flag('image');
  if (file) return { ref: fs.readFileSync(file), img: fs.readFileSync(file), source: file };
  if (fs.existsSync(path.join(clip, '001.jpg'))) {
    return { ref: fs.readFileSync(path.join(clip, '001.jpg')), img: fs.readFileSync(path.join(clip, '010.jpg')), source: 'camera-tamper-clips Occlusion 001 vs 010 (1280x720)' };
  }
  return { ref: await sceneJpeg(1280, 720, 1), img: await sceneJpeg(1280, 720, 1), source: 'synthetic 1280x720 scene' };
}

async function time(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 10; i++) await fn(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

const { ref, img, source } = await frames();
const meta = await sharp(img).metadata();
const prepared = await prepareReference(ref);
const decode = await time(() => sharp(img).raw().toBuffer());
const analysis = await time(() => analyzeWithPrepared(prepared, img));
const both = await time(() => analyzeAgainstReference(ref, img));
const tampered = tamperedFrame();
const displacedRef = tampered && (await prepareReference(fs.readFileSync(path.join(data, 'camera-tamper-clips/frames/Displacement/001.jpg'))));
const moved = tampered && displacedRef ? await time(() => analyzeWithPrepared(displacedRef, tampered)) : undefined;

console.log(`\nCamera analysis speed on one core (${runs} runs): ${source}, ${meta.width}x${meta.height}, ${img.length} bytes`);
console.log(`  bare JPEG decode                      median ${fmt(median(decode)).padStart(9)}  p95 ${fmt(percentile(decode, 95))}`);
console.log(`  analysis (reference prepared, cached) median ${fmt(median(analysis)).padStart(9)}  p95 ${fmt(percentile(analysis, 95))}  = ${(median(analysis) / median(decode)).toFixed(2)}x decode`);
console.log(`  analysis (both images decoded)        median ${fmt(median(both)).padStart(9)}  p95 ${fmt(percentile(both, 95))}  = ${(median(both) / median(decode)).toFixed(2)}x decode`);
if (moved) console.log(`  analysis of a displaced camera frame     median ${fmt(median(moved)).padStart(9)}  p95 ${fmt(percentile(moved, 95))}  = ${(median(moved) / median(decode)).toFixed(2)}x decode`);
console.log(`  targets: within 3x of bare decode and under 60 ms`);
