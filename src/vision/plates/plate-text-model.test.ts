import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { plateImage } from '../../../test/fixtures/plate-images.js';
import { decodeImage, type RawImage } from '../image/decode.js';
import { cropRect } from '../image/warp.js';
import { createOnnxSession, runSingle, VIGIL_MODEL_FILES } from '../runtime/onnx-session.js';
import { PLATE_CHARSET } from './plate-reread.js';
import { createPlateTextModel, READER_CHARS, READER_HEIGHT, READER_WIDTH, toReaderInput, withFoldedTwins } from './plate-text-model.js';
import type { CropRecognizer } from './plate-reread.js';

/** A generated plate (test/fixtures), cut to its number's line as the pipeline cuts candidates. */
async function plateLine(text: string, plateWidth = 240): Promise<RawImage> {
  const plate = await decodeImage(await plateImage(text, plateWidth));
  const h = plate.height;
  return cropRect(plate, Math.round(plate.width * 0.04), Math.round(h * 0.3), Math.round(plate.width * 0.92), Math.round(h * 0.48));
}

const fold = (s: string) => s.replace(/O/g, '0').replace(/I/g, '1');

describe.each(['int8', 'fp32'] as const)('trained plate reader, %s graph', (precision) => {
  let reader: CropRecognizer;
  beforeAll(async () => {
    reader = await createPlateTextModel({ precision });
  });

  it('reads generated plates of several layouts, O and I as 0 and 1', async () => {
    const texts = ['7ABC123', 'KX4071', 'BRA2E19', 'GHT5528', '9WXY330', 'OIL123'];
    const lines = await Promise.all(texts.map((t) => plateLine(t)));
    const read = await reader.recognizeCrops(lines, { charset: PLATE_CHARSET });
    expect(read.map((r) => r.text)).toEqual(texts.map(fold));
    for (const r of read) {
      expect(r.charConfidences).toHaveLength(r.text.length);
      expect(Math.min(...r.charConfidences)).toBeGreaterThan(0.5);
    }
  });

  it('keeps runs of one repeated character', async () => {
    const [read] = await reader.recognizeCrops([await plateLine('111 222')], { charset: PLATE_CHARSET });
    expect(read!.text).toBe('111222');
  });

  it('reads a small, blurred line as a distant camera sees it', async () => {
    const small = await plateLine('JKP4821', 120);
    const blurred = await sharp(small.data, { raw: { width: small.width, height: small.height, channels: small.channels } })
      .blur(0.8).jpeg({ quality: 50 }).toBuffer();
    const [read] = await reader.recognizeCrops([await decodeImage(blurred)], { charset: PLATE_CHARSET });
    expect(read!.text).toBe('JKP4821');
  });

  it('places each character in crop columns, left to right', async () => {
    const line = await plateLine('ABC1234');
    const [read] = await reader.recognizeCrops([line]);
    const spans = read!.charSpans!;
    expect(spans).toHaveLength(7);
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.x0).toBeGreaterThanOrEqual(spans[i - 1]!.x1 - 1);
    expect(spans[0]!.x0).toBeGreaterThanOrEqual(0);
    expect(spans[6]!.x1).toBeLessThanOrEqual(line.width + 1);
  });

  it('gives alternatives a grammar can swap to, and honours a narrower charset', async () => {
    const line = await plateLine('5B8S');
    const [digits] = await reader.recognizeCrops([line], { charset: '0123456789' });
    expect(digits!.text).toMatch(/^[0-9]+$/);
    const [all] = await reader.recognizeCrops([line], { charset: PLATE_CHARSET });
    for (const alts of all!.alternatives) {
      expect(alts.length).toBeGreaterThan(1);
      // O and I only as the twins of the 0 and 1 they were folded into.
      expect(alts.every((a) => READER_CHARS.includes(a.char) || 'OI'.includes(a.char))).toBe(true);
    }
  });

  it('reads nothing from an empty batch, and one reading per crop of a mixed batch', async () => {
    expect(await reader.recognizeCrops([])).toEqual([]);
    const grey: RawImage = { data: Buffer.alloc(30 * 100, 128), width: 100, height: 30, channels: 1 };
    const read = await reader.recognizeCrops([grey, await plateLine('KX4071')], { charset: PLATE_CHARSET });
    expect(read).toHaveLength(2);
    expect(read[0]!.text.length).toBeLessThanOrEqual(1);
    expect(read[1]!.text).toBe('KX4071');
  });
});

describe('the 8-bit reader against the float one it was made from', () => {
  it('reads the same characters at nearly the same confidence', async () => {
    const [int8, fp32] = await Promise.all([createPlateTextModel(), createPlateTextModel({ precision: 'fp32' })]);
    const texts = ['7ABC123', 'KX4071', 'BRA2E19', 'GHT5528', '9WXY330', 'MN88421', 'ZZ1100', 'HW3EF58'];
    const lines = await Promise.all(texts.flatMap((t) => [plateLine(t), plateLine(t, 130)]));
    const [a, b] = await Promise.all([int8.recognizeCrops(lines, { charset: PLATE_CHARSET }), fp32.recognizeCrops(lines, { charset: PLATE_CHARSET })]);
    expect(a.map((r) => r.text)).toEqual(b.map((r) => r.text));
    a.forEach((r, i) => r.charConfidences.forEach((c, k) => expect(Math.abs(c - b[i]!.charConfidences[k]!)).toBeLessThan(0.05)));
  });

  it('gives every frame nearly the float graph\'s probabilities, on CPUs without 8-bit dot products too', async () => {
    // On AVX2 alone onnxruntime adds pairs of uint8 x int8 products in saturating 16 bits: with
    // 8-bit weights some frames came out up to 0.6 off (a V read as U on a held plate), with
    // the shipped 7-bit weights under 0.15 (2026-12-02, AMD EPYC without VNNI).
    const [int8, fp32] = await Promise.all([VIGIL_MODEL_FILES.plateReaderInt8, VIGIL_MODEL_FILES.plateReader].map((f) => createOnnxSession(f, { intraOpNumThreads: 1 })));
    const texts = ['7ABC123', 'KX4071', 'BRA2E19', 'GHT5528', '9WXY330', 'MN88421', 'ZZ1100', 'HW3EF58'];
    const size = 3 * READER_WIDTH * READER_HEIGHT;
    const input = new Float32Array(texts.length * size);
    for (const [i, t] of texts.entries()) toReaderInput(await decodeImage(await plateImage(t, 240)), input, i * size);
    const dims = [texts.length, 3, READER_HEIGHT, READER_WIDTH];
    const [a, b] = await Promise.all([runSingle(int8!, input, dims), runSingle(fp32!, input, dims)]);
    let worst = 0;
    for (let i = 0; i < a.data.length; i++) worst = Math.max(worst, Math.abs(a.data[i]! - b.data[i]!));
    expect(worst).toBeLessThan(0.25);
  });
});

describe('withFoldedTwins', () => {
  const reading = { text: 'A01B', charConfidences: [0.9, 0.8, 0.7, 0.95], alternatives: [[{ char: 'A', prob: 0.9 }], [{ char: '0', prob: 0.8 }, { char: 'D', prob: 0.1 }], [{ char: '1', prob: 0.7 }], [{ char: 'B', prob: 0.95 }]] };

  it('puts O beside each 0 and I beside each 1, at the same probability, the read character first', () => {
    const twins = withFoldedTwins(reading, PLATE_CHARSET);
    expect(twins.text).toBe('A01B');
    expect(twins.alternatives).toEqual([
      [{ char: 'A', prob: 0.9 }],
      [{ char: '0', prob: 0.8 }, { char: 'O', prob: 0.8 }, { char: 'D', prob: 0.1 }],
      [{ char: '1', prob: 0.7 }, { char: 'I', prob: 0.7 }],
      [{ char: 'B', prob: 0.95 }],
    ]);
  });

  it('adds no letter a charset leaves out', () => {
    expect(withFoldedTwins(reading, '0123456789AB').alternatives).toEqual(reading.alternatives);
  });
});

describe('toReaderInput', () => {
  it('stretches a crop to 160 x 48 planar RGB in [0, 1], grey repeated over the channels', () => {
    const grey: RawImage = { data: Buffer.alloc(10 * 40, 255), width: 40, height: 10, channels: 1 };
    const out = new Float32Array(3 * READER_WIDTH * READER_HEIGHT + 5).fill(-1);
    toReaderInput(grey, out, 5);
    expect(out.slice(0, 5).every((v) => v === -1)).toBe(true);
    expect(out.slice(5).every((v) => v === 1)).toBe(true);
    const red: RawImage = { data: Buffer.from(Array.from({ length: 4 * 4 }, () => [255, 0, 51]).flat()), width: 4, height: 4, channels: 3 };
    const rgb = new Float32Array(3 * READER_WIDTH * READER_HEIGHT);
    toReaderInput(red, rgb, 0);
    const plane = READER_WIDTH * READER_HEIGHT;
    expect(rgb[0]).toBe(1);
    expect(rgb[plane]).toBe(0);
    expect(rgb[2 * plane]).toBeCloseTo(0.2, 6);
  });
});
