import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { legendLines, readLegendRegions, regionsOnPlates } from './plate-legend.js';
import type { Quad } from './plate.types.js';

const rect = (x0: number, y0: number, x1: number, y1: number): Quad => [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }];
const line = (x0: number, y0: number, x1: number, y1: number) => ({ quad: rect(x0, y0, x1, y1), score: 0.9 });

/** A number 200 x 40 px at (100, 100). */
const plate = { plate: 'ABC1234', textBox: { xmin: 100, ymin: 100, xmax: 300, ymax: 140 }, lineHeight: 40 };
const image: RawImage = { data: Buffer.alloc(400 * 300 * 3, 200), width: 400, height: 300, channels: 3 };

describe('legendLines', () => {
  it('takes the words above and below the number, tallest first, each line once', () => {
    const name = line(130, 60, 270, 85); // 25 px tall, above
    const slogan = line(120, 150, 280, 165); // 15 px tall, below
    const again = line(131, 61, 269, 86); // the name, found by the finer pass
    expect(legendLines([slogan, name, again], plate)).toEqual([name.quad, slogan.quad]);
  });

  it('leaves out the number itself, far text, text taller than the number and single glyphs', () => {
    const number = line(100, 100, 300, 140);
    const farAbove = line(130, -20, 270, 5); // more than 2.5 line heights above
    const aside = line(360, 100, 400, 120); // beyond a third of the number's width
    const badge = line(130, 40, 270, 90); // 50 px: taller than the number
    const glyph = line(190, 70, 210, 90); // as wide as tall
    expect(legendLines([number, farAbove, aside, badge, glyph], plate)).toEqual([]);
  });
});

/** A recogniser that reads each legend crop as the next of `texts`; it counts its calls. */
function reader(texts: string[]) {
  const calls: number[] = [];
  return {
    calls,
    ocr: {
      async recognizeCrops(crops: readonly RawImage[]) {
        calls.push(crops.length);
        return crops.map(() => ({ text: texts.shift() ?? '', charConfidences: [], alternatives: [] }));
      },
    },
  };
}

describe('readLegendRegions', () => {
  const lines = [line(130, 60, 270, 85), line(120, 150, 280, 165)];

  it('names the state the tallest legend line names, and reads no further', async () => {
    const { ocr, calls } = reader(['California', 'Dealer']);
    expect(await readLegendRegions(image, [plate], lines, ocr, [])).toEqual(['us-ca']);
    expect(calls).toEqual([1]);
  });

  it('reads the next line when the tallest names no region (a dealer frame over a slogan)', async () => {
    const { ocr, calls } = reader(['SMITH MOTORS', 'LIVE FREE OR DIE']);
    expect(await readLegendRegions(image, [plate], lines, ocr, [])).toEqual(['us-nh']);
    expect(calls).toEqual([1, 1]);
  });

  it('keeps to the country the client named, and to a country whose formats the number fits', async () => {
    expect(await readLegendRegions(image, [plate], lines, reader(['California']).ocr, ['br'])).toEqual([undefined]);
    expect(await readLegendRegions(image, [plate], lines, reader(['California']).ocr, ['us-tx'])).toEqual(['us-ca']);
    // A British Columbian number under a frame that reads VICTORIA (a BC city, and an Australian state).
    const bc = { ...plate, plate: 'AB123C' };
    expect(await readLegendRegions(image, [bc], lines, reader(['VICTORIA', '']).ocr, [])).toEqual([undefined]);
  });

  it('names the state of a number too short for any format (a low or chosen number)', async () => {
    const short = { ...plate, plate: '2515' };
    expect(await readLegendRegions(image, [short], lines, reader(['Massachusetts']).ocr, [])).toEqual(['us-ma']);
  });

  it('reads nothing where no line stands near the number', async () => {
    const { ocr, calls } = reader([]);
    expect(await readLegendRegions(image, [plate], [], ocr, [])).toEqual([undefined]);
    expect(calls).toEqual([]);
  });
});

describe('regionsOnPlates', () => {
  /** The photo above with a European band left of the number: 24 px wide, 12 px before it, as
   * tall as the plate (29 px above and below the number's middle). */
  const banded: RawImage = { ...image, data: Buffer.from(image.data) };
  for (let y = 91; y < 149; y++) for (let x = 64; x < 88; x++) banded.data.set([0, 51, 153], 3 * (y * 400 + x));
  const eu = { ...plate, plate: 'AB123CD' }; // fits Italy, France and Slovakia
  const legend = [line(130, 60, 270, 85)];
  const anywhere = { regions: [], strict: false };
  /** A recogniser that reads the band's sign (asked in capital letters) as `sign` at `sure`,
   * and every legend line as `legendText`. */
  const signs = (sign: string, sure: number, legendText: string) => ({
    async recognizeCrops(crops: readonly RawImage[], opts?: { charset?: string }) {
      const [text, prob] = opts?.charset ? [sign, sure] : [legendText, 0.9];
      return crops.map(() => ({ text, charConfidences: Array(text.length).fill(prob), alternatives: [] }));
    },
  });

  it('gives a banded plate the country of its sign, else of a legend line that is a sign, else of its format', async () => {
    expect(await regionsOnPlates(banded, [eu], legend, signs('F', 0.95, 'SK'), anywhere, true)).toEqual(['fr']);
    expect(await regionsOnPlates(banded, [eu], legend, signs('F', 0.4, 'SK'), anywhere, true)).toEqual(['sk']);
    expect(await regionsOnPlates(banded, [eu], legend, signs('F', 0.4, 'Texas'), anywhere, true)).toEqual(['it']);
    // Where the mode reads no text, the band alone.
    expect(await regionsOnPlates(banded, [eu], legend, signs('F', 0.95, 'SK'), anywhere, false)).toEqual(['it']);
  });

  it('reads no legend for a plate whose band sign was read', async () => {
    const asked: Array<string | undefined> = [];
    const counting = signs('F', 0.95, 'SK');
    const ocr = { recognizeCrops: (crops: readonly RawImage[], opts?: { charset?: string }) => (asked.push(opts?.charset), counting.recognizeCrops(crops, opts)) };
    expect(await regionsOnPlates(banded, [eu], legend, ocr, anywhere, true)).toEqual(['fr']);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toBeDefined();
  });

  it('keeps to a strict client\'s regions where none of them has a band', async () => {
    expect(await regionsOnPlates(banded, [eu], legend, signs('F', 0.95, 'SK'), { regions: ['us'], strict: true }, false)).toEqual([undefined]);
    expect(await regionsOnPlates(banded, [eu], legend, signs('F', 0.95, 'SK'), { regions: ['us'], strict: false }, false)).toEqual(['it']);
    expect(await regionsOnPlates(banded, [eu], legend, signs('F', 0.95, 'SK'), { regions: ['us', 'fr'], strict: true }, false)).toEqual(['fr']);
  });

  it('leaves a plate without a band to its legend', async () => {
    expect(await regionsOnPlates(image, [plate], legend, signs('F', 0.95, 'California'), anywhere, true)).toEqual(['us-ca']);
    expect(await regionsOnPlates(image, [plate], legend, signs('F', 0.95, 'California'), anywhere, false)).toEqual([undefined]);
  });
});
