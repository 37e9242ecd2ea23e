/**
 * The OCR engines' answers kept on disk (bench:ocr --engine-cache DIR), so that a change to what
 * makes text of them (src/vision/ocr/readers, src/domain/text, the layouts lines are cut and
 * read in, the fusion of two readers' lines) reads a draw of hundreds of images again in
 * seconds: PP-OCR's text boxes, upside-down checks and line readings, the stack reader's and the
 * identifier reader's, each keyed by its input pixels and options. The key also holds
 * `engineVersion`: the engines' own code and models, so a change there misses the cache rather
 * than answering from it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RawImage } from '../../src/vision/image/decode.js';
import { type LineRecognizer, type OcrEngine, withLineRecognizer } from '../../src/vision/ocr/ocr-engine.js';
import type { StackRecognizer } from '../../src/vision/ocr/stack-reader.js';
import { OCR_MODEL_FILES, resolveModelAsset, VIGIL_MODELS_DIR } from '../../src/vision/runtime/onnx-session.js';

const SRC = path.resolve(import.meta.dirname, '../../src/vision');
/** Code under src/vision/ocr that works on the engines' answers, never inside them: the bench
 * runs it afresh each time, so changing it keeps the cache. */
const AROUND_THE_ENGINES = new Set(['line-layouts.ts', 'column-extension.ts', 'column-box.ts', 'vertical-text.ts', 'fused-readings.ts']);

/** A hash of what the engines' answers depend on: the code under src/vision/ocr (not its
 * readers, nor AROUND_THE_ENGINES), image and runtime, PP-OCR's and Vigil's model files, and `settings` (the bench's
 * precision and model flags, with any model file they name). */
export function engineVersion(settings: Record<string, string | undefined>): string {
  const hash = crypto.createHash('sha1');
  const sources = ['ocr', 'image', 'runtime'].flatMap((dir) => fs.readdirSync(path.join(SRC, dir))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !AROUND_THE_ENGINES.has(f)).sort().map((f) => path.join(SRC, dir, f)));
  const models = [...Object.values(OCR_MODEL_FILES).map(resolveModelAsset),
    ...fs.readdirSync(VIGIL_MODELS_DIR).filter((f) => f.endsWith('.onnx')).sort().map((f) => path.join(VIGIL_MODELS_DIR, f))];
  const named = Object.values(settings).filter((v): v is string => v !== undefined && fs.existsSync(v));
  for (const file of [...sources, ...models, ...named]) hash.update(file).update(fs.readFileSync(file));
  return hash.update(JSON.stringify(settings)).digest('hex').slice(0, 16);
}

export interface EngineCache {
  /** `engine` answering from the cache: its boxes, checks and line readings, and readLines made of them. */
  ocr(engine: OcrEngine): OcrEngine;
  stacks(reader: StackRecognizer): StackRecognizer;
  lines(reader: LineRecognizer): LineRecognizer;
}

export function engineCache(dir: string, version: string): EngineCache {
  const folder = path.join(dir, version);
  fs.mkdirSync(folder, { recursive: true });
  const pixels = (images: readonly RawImage[]) => images.map((i) => Buffer.from(i.data.buffer, i.data.byteOffset, i.data.byteLength));
  async function cached<T>(kind: string, images: readonly RawImage[], options: unknown, answer: () => Promise<T>): Promise<T> {
    const key = crypto.createHash('sha1');
    for (const p of pixels(images)) key.update(p);
    key.update(JSON.stringify([kind, images.map((i) => [i.width, i.height, i.channels]), options ?? null]));
    const file = path.join(folder, `${kind}-${key.digest('hex')}.json`);
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
    const value = await answer();
    fs.writeFileSync(file, JSON.stringify(value));
    return value;
  }
  return {
    ocr(engine) {
      const parts: OcrEngine = {
        detect: (image, options) => cached('detect', [image], options, () => engine.detect(image, options)),
        classifyUpsideDown: (crops) => cached('upside', crops, null, () => engine.classifyUpsideDown(crops)),
        recognizeCrops: (crops, options) => cached('lines', crops, options, () => engine.recognizeCrops(crops, options)),
        readLines: (image, options) => cachedEngine.readLines(image, options),
      };
      // readLines made as the engine's own is: the cached boxes and checks, read by the cached recogniser.
      const cachedEngine = withLineRecognizer(parts, parts);
      return cachedEngine;
    },
    stacks: (reader) => ({ recognizeStacks: (columns, options) => cached('stacks', columns, options, () => reader.recognizeStacks(columns, options)) }),
    lines: (reader) => ({ recognizeCrops: (crops, options) => cached('identifier', crops, options, () => reader.recognizeCrops(crops, options)) }),
  };
}
