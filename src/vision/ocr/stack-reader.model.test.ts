import { describe, expect, it } from 'vitest';
import { verticalTextImage } from '../../../test/fixtures/text-images.js';
import { decodeImage } from '../image/decode.js';
import { cropRect } from '../image/warp.js';
import { createOcrEngine, withStackReader } from './ocr-engine.js';
import { readText } from './readers/text-reader.js';
import { createStackReader } from './stack-reader.js';

describe('stack reader (models/stack-reader.onnx)', () => {
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

  it('reads a stacked trailer number through the engine', async () => {
    const engine = withStackReader(await createOcrEngine(), await createStackReader());
    const [stacked] = await readText(engine, 'trailer_id', await decodeImage(await verticalTextImage('MPF1806')));
    expect(stacked).toMatchObject({ value: 'MPF1806', orientation: 'vertical' });
  });
});
