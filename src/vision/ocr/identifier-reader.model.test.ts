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

describe('identifier reader (models/identifier-reader.onnx)', () => {
  it('reads a line of letters and digits, O apart from 0', async () => {
    const reader = await createIdentifierReader();
    const photo = await decodeImage(await textImage([{ text: 'TRL 40O7', x: 60, y: 150, size: 96, bold: true }], 800, 240));
    const [line] = await reader.recognizeCrops([cropRect(photo, 30, 50, 600, 140)]);
    expect(line!.text.replace(/\s/g, '')).toBe('TRL40O7');
    expect(line!.confidence).toBeGreaterThan(0.5);
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
