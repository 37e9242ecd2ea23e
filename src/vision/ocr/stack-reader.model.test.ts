import { describe, expect, it } from 'vitest';
import { verticalTextImage } from '../../../test/fixtures/text-images.js';
import { decodeImage } from '../image/decode.js';
import { cropRect } from '../image/warp.js';
import { createOcrEngine, withStackReader } from './ocr-engine.js';
import { readText } from './readers/text-reader.js';
import { createStackReader } from './stack-reader.js';

describe('stack reader (models/stack-reader.int8.onnx, and the float graph it came from)', () => {
  it('reads a column of upright characters top to bottom, with no layout of its own', async () => {
    const stacks = await createStackReader();
    // verticalTextImage draws the characters down the middle of a 400 x 900 picture.
    const photo = await decodeImage(await verticalTextImage('PKE6917'));
    const column = cropRect(photo, 120, 20, 160, 860);
    const [upright] = await stacks.recognizeStacks([column]);
    expect(upright!.text).toBe('PKE6917');
    // Upside down it is no reading of that number: the reader knows which end is the top.
    const turned = { ...column, data: Buffer.from(column.data).reverse() };
    const [over] = await stacks.recognizeStacks([turned]);
    expect(over!.text).not.toBe('PKE6917');
  });

  it('reads in 8 bits what its float graph reads', async () => {
    const [int8, fp32] = await Promise.all([createStackReader(), createStackReader({ precision: 'fp32' })]);
    const columns = await Promise.all(['TRLU4', '8830126'].map(async (text) => cropRect(await decodeImage(await verticalTextImage(text)), 120, 20, 160, 860)));
    const [a, b] = await Promise.all([int8.recognizeStacks(columns), fp32.recognizeStacks(columns)]);
    expect(a.map((c) => c.text)).toEqual(['TRLU4', '8830126']);
    expect(a.map((c) => c.text)).toEqual(b.map((c) => c.text));
    // Two graphs ran: 8-bit arithmetic does not give the float graph's confidences to the last place.
    expect(a.map((c) => c.confidence)).not.toEqual(b.map((c) => c.confidence));
  });

  it('reads a stacked trailer number through the engine', async () => {
    const engine = withStackReader(await createOcrEngine(), await createStackReader());
    const [stacked] = await readText(engine, 'trailer_id', await decodeImage(await verticalTextImage('MPF1806')));
    expect(stacked).toMatchObject({ value: 'MPF1806', orientation: 'vertical' });
  });
});
