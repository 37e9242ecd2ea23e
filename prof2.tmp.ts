import fs from 'node:fs';
import sharp from 'sharp';
import { decodeImage } from './src/vision/image/decode.js';
import { createOcrEngine } from './src/vision/ocr/ocr-engine.js';
import { configuredPlatePipeline } from './src/vision/plates/configured-pipeline.js';
import { defaultVisionSettings } from './src/vision/settings.js';
import { loadPlateSets, DEFAULT_DATA_DIR } from './bench/lib/plates-dataset.js';
const mode = (process.argv[2] ?? 'fast') as any;
const engine = await createOcrEngine();
const p = await configuredPlatePipeline(engine, defaultVisionSettings());
const sets = await loadPlateSets(DEFAULT_DATA_DIR, 'fit');
const samples = [...sets['scenes-us']!.slice(0, 25), ...sets['scenes-eu']!.slice(0, 15), ...sets['scenes-br']!.slice(0, 15)];
const jpegs = await Promise.all(samples.map(async (x) => sharp(fs.readFileSync(x.file)).resize(1920, 1920, { fit: 'inside' }).jpeg({ quality: 92 }).toBuffer()));
const options = { regions: [], strictRegion: false, textFormats: [], mode, thresholdD: 0.2, thresholdO: 0.6, strictDetection: false, mmc: false };
await p.read(await decodeImage(jpegs[0]!), options);
const times: number[] = [];
for (let r = 0; r < 2; r++) for (const j of jpegs) { const t = performance.now(); await p.read(await decodeImage(j), options); times.push(performance.now() - t); }
times.sort((a, b) => a - b);
console.log(mode, 'median', times[times.length >> 1]!.toFixed(0));
