import { describe, expect, it } from 'vitest';
import { textImage } from '../../../test/fixtures/text-images.js';
import { decodeImage } from '../image/decode.js';
import { cropRect } from '../image/warp.js';
import { createIdentifierReader, readsWithSecondLineReader } from './identifier-reader.js';
import { createOcrEngine, withSecondLineReader, withStackReader } from './ocr-engine.js';
import { readText } from './readers/text-reader.js';
import { createStackReader } from './stack-reader.js';

/** The engine the server reads trailer IDs and VINs with (recognition.worker.ts), built once. */
let fused: ReturnType<typeof createOcrEngine> | undefined;
const serverEngine = async () => (fused ??= (async () =>
  withSecondLineReader(withStackReader(await createOcrEngine(), await createStackReader()), await createIdentifierReader()))());

describe('identifier reader (models/identifier-reader.int8.onnx, and the float graph it came from)', () => {
  it('reads a line of letters and digits, O apart from 0', async () => {
    const reader = await createIdentifierReader();
    const photo = await decodeImage(await textImage([{ text: 'TRL 40O7', x: 60, y: 150, size: 96, bold: true }], 800, 240));
    const [line] = await reader.recognizeCrops([cropRect(photo, 30, 50, 600, 140)]);
    expect(line!.text.replace(/\s/g, '')).toBe('TRL40O7');
    expect(line!.confidence).toBeGreaterThan(0.5);
  });

  it('reads in 8 bits what its float graph reads, each character about as sure', async () => {
    const [int8, fp32] = await Promise.all([createIdentifierReader(), createIdentifierReader({ precision: 'fp32' })]);
    const photo = await decodeImage(await textImage([
      { text: 'WBA3B5C51EF961258', x: 20, y: 90, size: 56, bold: true },
      { text: 'MSKU 604213 7', x: 20, y: 220, size: 64 },
    ], 900, 260));
    // Text is drawn on its baseline: each crop holds one line with a margin around it.
    const crops = [cropRect(photo, 5, 25, 890, 85), cropRect(photo, 5, 145, 700, 95)];
    const [a, b] = await Promise.all([int8.recognizeCrops(crops), fp32.recognizeCrops(crops)]);
    expect(a.map((l) => l.text.replace(/\s/g, ''))).toEqual(['WBA3B5C51EF961258', 'MSKU6042137']);
    expect(a.map((l) => l.text)).toEqual(b.map((l) => l.text));
    a.forEach((line, i) => expect(Math.abs(line.confidence - b[i]!.confidence)).toBeLessThan(0.05));
    // Two graphs ran: 8-bit arithmetic does not give the float graph's confidences to the last place.
    expect(a.map((l) => l.confidence)).not.toEqual(b.map((l) => l.confidence));
  });

  it('reads trailer numbers beside PP-OCR through the engine the server reads them with', async () => {
    expect(readsWithSecondLineReader('trailer_id')).toBe(true);
    expect(readsWithSecondLineReader('vin')).toBe(true);
    expect(readsWithSecondLineReader('boat_reg_number')).toBe(false);
    const engine = await serverEngine();
    const photo = await decodeImage(await textImage([{ text: 'FLEET', x: 80, y: 140, size: 48 }, { text: 'ZX48127', x: 80, y: 330, size: 120, bold: true }]));
    const [reading] = await readText(engine, 'trailer_id', photo);
    expect(reading).toMatchObject({ value: 'ZX48127', orientation: 'horizontal' });
  });

  it('reads a VIN beside PP-OCR through the same engine', async () => {
    const engine = await serverEngine();
    const photo = await decodeImage(await textImage([{ text: '1HGCM82633A004352', x: 40, y: 200, size: 64, bold: true }], 1000, 320));
    const [reading] = await readText(engine, 'vin', photo);
    expect(reading?.value).toBe('1HGCM82633A004352');
  });
});
