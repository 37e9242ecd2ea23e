/**
 * npm run bench:onnx-precision [-- --runs 30] [--data DIR | --image PHOTO] [--precisions fp32,fused]
 *
 * Raw onnxruntime latency of the PP-OCRv4 detector and recogniser in each graph variant
 * (src/vision/runtime/model-variants.ts): detector on a 1920x1080 photo at 640 and 960 px,
 * recogniser on batches of 1 and 4 crops of 48x320. The photo is the first of containers-gate
 * (or --image; a synthetic scene when neither is there). Runs alternate between the variants so all
 * share the same period on a busy machine. Per case: median wall ms, median process CPU ms, and
 * how far the output strays from fp32 (detector: map pixels on the other side of the 0.3
 * threshold, as a share of fp32's text pixels; recogniser: frames whose best class differs).
 * First, for scale, decoding the photo itself (what every reading pays before any model runs).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { decodeImage } from '../src/vision/image/decode.js';
import { prepareDetectionInput } from '../src/vision/ocr/det-preprocess.js';
import { prepareRecognitionBatch } from '../src/vision/ocr/rec-preprocess.js';
import { type OcrPrecision, parseOcrPrecision } from '../src/vision/runtime/model-variants.js';
import { createOnnxSession, OCR_MODEL_FILES, type OnnxSession, runSingle } from '../src/vision/runtime/onnx-session.js';
import { flag, median, timed } from './lib/stats.js';

const runs = Number(flag('runs', '30'));
const precisions = flag('precisions', 'fp32,fused')!.split(',').map(parseOcrPrecision);
const gate = path.join(flag('data', path.resolve(import.meta.dirname, '../../shared/datasets'))!, 'containers-gate');
const defaultPhoto = fs.existsSync(gate) ? path.join(gate, fs.readdirSync(gate).filter((f) => f.endsWith('.jpg')).sort()[0]!) : undefined;
const photoPath = flag('image', defaultPhoto);

/** The photo's encoded bytes. */
async function photo(): Promise<Buffer> {
  if (photoPath) return fs.readFileSync(photoPath);
  // No dataset: a synthetic 1080p scene with a few text lines.
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080"><rect width="1920" height="1080" fill="#8a8f96"/>
    <rect x="300" y="300" width="900" height="300" fill="#f4f4ee"/><text x="340" y="480" font-family="DejaVu Sans" font-weight="bold" font-size="120">MSCU 1234567</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg().toBuffer();
}

async function crops(n: number) {
  const texts = ['TGHU 874120', 'QX 58B 2291', '0074193 km', 'WDB9634031L'];
  return Promise.all(texts.slice(0, n).map(async (t) => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="310" height="48"><rect width="310" height="48" fill="#e8e4da"/><text x="8" y="36" font-family="DejaVu Sans Mono" font-size="30">${t}</text></svg>`;
    return decodeImage(await sharp(Buffer.from(svg)).png().toBuffer());
  }));
}

const photoBytes = await photo();
const image = await decodeImage(photoBytes);
const cases = [
  { name: 'det 640', file: OCR_MODEL_FILES.detection, input: prepareDetectionInput(image, 640) },
  { name: 'det 960', file: OCR_MODEL_FILES.detection, input: prepareDetectionInput(image, 960) },
  { name: 'rec 1x48x320', file: OCR_MODEL_FILES.recognition, input: prepareRecognitionBatch(await crops(1)) },
  { name: 'rec 4x48x320', file: OCR_MODEL_FILES.recognition, input: prepareRecognitionBatch(await crops(4)) },
];

const sessions = new Map<string, OnnxSession>();
for (const p of precisions) for (const file of new Set(cases.map((c) => c.file))) sessions.set(`${p}:${file}`, await createOnnxSession(file, { precision: p }));

function deviation(kind: string, ref: Float32Array, out: Float32Array, dims: readonly number[]): string {
  if (kind.startsWith('det')) {
    let positives = 0;
    let flipped = 0;
    for (let i = 0; i < ref.length; i++) {
      if (ref[i]! > 0.3) positives++;
      if (ref[i]! > 0.3 !== out[i]! > 0.3) flipped++;
    }
    return `${((100 * flipped) / Math.max(1, positives)).toFixed(2)}% px flipped`;
  }
  const classes = dims[2]!;
  const frames = ref.length / classes;
  let differ = 0;
  for (let f = 0; f < frames; f++) {
    let a = 0;
    let b = 0;
    for (let c = 1; c < classes; c++) {
      if (ref[f * classes + c]! > ref[f * classes + a]!) a = c;
      if (out[f * classes + c]! > out[f * classes + b]!) b = c;
    }
    if (a !== b) differ++;
  }
  return `${differ}/${frames} frames differ`;
}

console.log(`onnx precision bench: ${runs} runs, photo ${photoPath ?? 'synthetic'} (${image.width}x${image.height})`);
console.log(`${'case'.padEnd(14)} ${'precision'.padEnd(9)} ${'wall ms'.padStart(8)} ${'cpu ms'.padStart(8)}  vs fp32`);

const decodes: Array<{ ms: number; cpuMs: number }> = [];
for (let r = 0; r < runs; r++) decodes.push(await timed(() => decodeImage(photoBytes)));
console.log(`${'decode'.padEnd(14)} ${'-'.padEnd(9)} ${median(decodes.map((d) => d.ms)).toFixed(1).padStart(8)} ${median(decodes.map((d) => d.cpuMs)).toFixed(1).padStart(8)}`);
for (const c of cases) {
  const wall = new Map<OcrPrecision, number[]>();
  const cpu = new Map<OcrPrecision, number[]>();
  const outputs = new Map<OcrPrecision, { data: Float32Array; dims: readonly number[] }>();
  for (const p of precisions) outputs.set(p, await runSingle(sessions.get(`${p}:${c.file}`)!, c.input.data, c.input.dims));
  for (let r = 0; r < runs; r++) {
    for (const p of precisions) {
      const t = await timed(() => runSingle(sessions.get(`${p}:${c.file}`)!, c.input.data, c.input.dims));
      (wall.get(p) ?? wall.set(p, []).get(p)!).push(t.ms);
      (cpu.get(p) ?? cpu.set(p, []).get(p)!).push(t.cpuMs);
    }
  }
  const ref = outputs.get('fp32');
  for (const p of precisions) {
    const out = outputs.get(p)!;
    const dev = ref && p !== 'fp32' ? deviation(c.name, ref.data, out.data, out.dims) : '';
    console.log(`${c.name.padEnd(14)} ${p.padEnd(9)} ${median(wall.get(p)!).toFixed(1).padStart(8)} ${median(cpu.get(p)!).toFixed(1).padStart(8)}  ${dev}`);
  }
}
