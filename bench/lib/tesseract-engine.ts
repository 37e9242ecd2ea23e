/**
 * The `tesseract` command behind the OcrEngine interface, for bench:ocr's comparison: Vigil's
 * own readers (line selection, grammars, check digits) run on Tesseract's words, so the
 * comparison is between the two engines and nothing else.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { RawImage } from '../../src/vision/image/decode.js';
import type { DecodedText } from '../../src/vision/ocr/ctc-decode.js';
import type { Quad } from '../../src/vision/ocr/geometry.js';
import type { OcrEngine } from '../../src/vision/ocr/ocr-engine.js';
import type { TextLine } from '../../src/vision/ocr/ocr.types.js';

const run = promisify(execFile);

/** The installed version, or undefined when the command is missing. */
export function tesseractVersion(): string | undefined {
  try {
    return execFileSync('tesseract', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).split('\n')[0];
  } catch {
    return undefined;
  }
}

async function toPng(image: RawImage): Promise<string> {
  const file = path.join(os.tmpdir(), `vigil-tess-${process.pid}-${Math.random().toString(36).slice(2)}.png`);
  await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } }).png({ compressionLevel: 1 }).toFile(file);
  return file;
}

async function tesseract(image: RawImage, args: string[]): Promise<string> {
  const file = await toPng(image);
  try {
    const { stdout } = await run('tesseract', [file, 'stdout', ...args], { maxBuffer: 16 << 20, env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
    return stdout;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** Words of a TSV page grouped into lines (block, paragraph, line), with their extent. */
function tsvLines(tsv: string): TextLine[] {
  const lines = new Map<string, { words: string[]; conf: number[]; x0: number; y0: number; x1: number; y1: number }>();
  for (const row of tsv.split('\n').slice(1)) {
    const c = row.split('\t');
    if (c.length < 12 || c[0] !== '5') continue;
    const text = c[11]!.trim();
    const conf = Number(c[10]);
    if (!text || conf < 0) continue;
    const [x, y, w, h] = [Number(c[6]), Number(c[7]), Number(c[8]), Number(c[9])];
    const key = `${c[2]}-${c[3]}-${c[4]}`;
    const l = lines.get(key) ?? { words: [], conf: [], x0: x, y0: y, x1: x + w, y1: y + h };
    l.words.push(text);
    l.conf.push(conf / 100);
    l.x0 = Math.min(l.x0, x);
    l.y0 = Math.min(l.y0, y);
    l.x1 = Math.max(l.x1, x + w);
    l.y1 = Math.max(l.y1, y + h);
    lines.set(key, l);
  }
  return [...lines.values()].map((l) => {
    const text = l.words.join(' ');
    const confidence = l.conf.reduce((s, v) => s + v, 0) / l.conf.length;
    const box: Quad = [{ x: l.x0, y: l.y0 }, { x: l.x1, y: l.y0 }, { x: l.x1, y: l.y1 }, { x: l.x0, y: l.y1 }];
    return { text, confidence, charConfidences: [...text].map(() => confidence), alternatives: [], box, orientation: 'horizontal', layout: 'upright' };
  });
}

/** Sparse text (--psm 11) for whole pictures, one line (--psm 7) for crops. */
export function createTesseractEngine(): OcrEngine {
  return {
    async readLines(image) {
      return tsvLines(await tesseract(image, ['--psm', '11', 'tsv']));
    },
    async detect(image) {
      return tsvLines(await tesseract(image, ['--psm', '11', 'tsv'])).map((l) => ({ quad: l.box, score: l.confidence }));
    },
    async recognizeCrops(crops, options = {}) {
      const out: DecodedText[] = [];
      for (const crop of crops) {
        const args = ['--psm', '7', ...(options.charset ? ['-c', `tessedit_char_whitelist=${options.charset}`] : [])];
        const text = (await tesseract(crop, args)).trim();
        out.push({ text, confidence: text ? 0.8 : 0, charConfidences: [...text].map(() => 0.8), alternatives: [] });
      }
      return out;
    },
    async classifyUpsideDown(crops) {
      return crops.map(() => false);
    },
  };
}
