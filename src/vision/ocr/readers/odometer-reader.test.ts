import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { dashboardImage } from '../../../../test/fixtures/text-images.js';
import { decodeImage } from '../../image/decode.js';
import { createOcrEngine, type OcrEngine } from '../ocr-engine.js';
import type { DecodedText } from '../ctc-decode.js';
import { readOdometer, rereadRow } from './odometer-reader.js';
import type { RowPiece } from './odometer-rows.js';

/**
 * A drum odometer: light digits on dark wheels, then a tenths wheel dark on light, turned `roll`
 * of a digit past `tenths` (the digit rising out of the top of the window, the next one coming in
 * from below).
 */
function drumImage(digits: string, tenths: number, roll: number): Promise<Buffer> {
  const [pitch, h, x0, y0, n] = [46, 70, 400, 300, digits.length];
  const tx = x0 + n * pitch;
  const wheel = [...digits].map((d, k) => `<text x="${x0 + k * pitch + pitch / 2}" y="${y0 + h / 2 + 20}" font-family="DejaVu Sans" font-size="56" fill="#f4f4f4" text-anchor="middle">${d}</text>`).join('');
  const tenthsDigit = (d: number, dy: number) => `<text x="${pitch / 2 - 3}" y="${h / 2 + 20 + dy}" font-family="DejaVu Sans" font-size="56" fill="#181818" text-anchor="middle">${d % 10}</text>`;
  // The turned digits are drawn whole, then the dashboard is painted over them outside the window.
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720">
<rect width="1280" height="720" fill="#202124"/>
<rect x="${x0 - 6}" y="${y0 - 4}" width="${(n + 1) * pitch + 12}" height="${h + 8}" fill="#050505"/>
${wheel}
<g transform="translate(${tx + 3} ${y0})"><rect width="${pitch - 6}" height="${h}" fill="#eeeeee"/>${tenthsDigit(tenths, -roll * h)}${tenthsDigit(tenths + 1, h - roll * h)}</g>
<rect x="${tx}" y="${y0 - 60}" width="${pitch}" height="56" fill="#202124"/><rect x="${tx}" y="${y0 + h + 4}" width="${pitch}" height="60" fill="#202124"/>
<rect x="${tx}" y="${y0 - 4}" width="${pitch}" height="4" fill="#050505"/><rect x="${tx}" y="${y0 + h}" width="${pitch}" height="4" fill="#050505"/>
<rect x="${x0 - 6}" y="${y0 - 4}" width="${(n + 1) * pitch + 12}" height="${h + 8}" fill="none" stroke="#777" stroke-width="3"/>
<text x="${x0 - 70}" y="${y0 + 45}" font-family="DejaVu Sans" font-weight="bold" font-size="24" fill="#ccc">ODO</text>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}

/** The odometer reader on the PP-OCR engine, on rendered dashboards. */
describe('odometer reader', () => {
  let engine: OcrEngine;
  beforeAll(async () => {
    engine = await createOcrEngine();
  });

  it.each([
    { odometer: '048213', trip: '123.4', clock: '12:45', temperature: '21°C' },
    { odometer: '117560', trip: '2045.7', clock: '08:03', temperature: '-4°C' },
  ])('reads the odometer $odometer, not the trip meter, the clock, the temperature or the dial', async (dash) => {
    const image = await decodeImage(await dashboardImage(dash));
    const [reading, ...rest] = await readOdometer(engine, image);
    expect(rest).toEqual([]);
    expect(reading).toMatchObject({ value: dash.odometer, orientation: 'horizontal' });
    // Where it was read: the odometer window, in the lower middle of the dial.
    expect(reading!.box!.ymin).toBeGreaterThan(450);
    expect(reading!.box!.ymax).toBeLessThan(570);
  });

  // A dashboard photographed with the phone held sideways: nothing reads upright. sharp turns
  // clockwise: a point (x, y) of the upright W x H image goes to (H - y, x) for 90 degrees.
  it.each([90, 270])('reads the odometer of a dashboard photo turned %i degrees, boxed in its own pixels', async (degrees) => {
    const dash = { odometer: '048213', trip: '123.4', clock: '12:45', temperature: '21°C' };
    const bytes = await dashboardImage(dash);
    const [upright] = await readOdometer(engine, await decodeImage(bytes));
    const turned = await decodeImage(await sharp(bytes).rotate(degrees).toBuffer());
    const [reading, ...rest] = await readOdometer(engine, turned);
    expect(rest).toEqual([]);
    expect(reading?.value).toBe(dash.odometer);
    const b = upright!.box!;
    const [W, H] = [turned.height, turned.width];
    const expected = degrees === 90 ? { xmin: H - b.ymax, ymin: b.xmin, xmax: H - b.ymin, ymax: b.xmax } : { xmin: b.ymin, ymin: W - b.xmax, xmax: b.ymax, ymax: W - b.xmin };
    for (const k of ['xmin', 'ymin', 'xmax', 'ymax'] as const) expect(Math.abs(reading!.box![k] - expected[k])).toBeLessThanOrEqual(3);
  });

  // Read as drawn, the turned wheel falls to a digit it does not show (166032, 318462, 059219,
  // 604822); read shifted up by about as much as it turned, it reads surely.
  it.each([
    { digits: '16603', tenths: 3, roll: 0.35 },
    { digits: '31846', tenths: 5, roll: 0.35 },
    { digits: '05921', tenths: 8, roll: 0.35 },
    { digits: '60482', tenths: 9, roll: 0.4 },
    // Sure only when the light wheel is read inverted, light on dark like the drum before it.
    { digits: '05921', tenths: 8, roll: 0.4 },
  ])('reads a tenths wheel turned $roll past $tenths as $tenths', async ({ digits, tenths, roll }) => {
    const [reading] = await readOdometer(engine, await decodeImage(await drumImage(digits, tenths, roll)));
    expect(reading?.value).toBe(`${digits}${tenths}`);
  });
});

/**
 * A drum 00539 whose tenths wheel is caught half turned: the first pass read it as 3, unsurely,
 * the digits-only reads passed it over. A fake recogniser answers the two digits-only reads,
 * then the four views of the wheel (its upper half centred, as it is and inverted, then its
 * lower half).
 */
describe('a tenths wheel the digits-only read passed over', () => {
  const pitch = 47;
  const centres = [6, 30, 77, 124, 171, 218]; // the window edge read as 1, then 0 0 5 3 9
  const decoded = (text: string, confidences: number[], at: number[]): DecodedText => ({
    text,
    confidence: confidences.reduce((a, b) => a + b, 0) / confidences.length,
    charConfidences: confidences,
    alternatives: confidences.map(() => []),
    charSpans: at.map((c) => ({ x0: c - 4, x1: c + 4 })),
  });
  const digitsOnly = decoded('100539', [0.5, 0.97, 0.99, 0.99, 0.99, 0.98], centres);
  // A view: the two drum digits before the wheel, then the wheel's digit (absent: none read).
  const view = (tenths?: [string, number]) => (tenths ? decoded(`39${tenths[0]}`, [0.99, 0.99, tenths[1]], [20, 65, pitch * 2 + 20]) : decoded('39', [0.99, 0.99], [20, 65]));
  const image = { data: Buffer.alloc(600 * 200 * 3, 40), width: 600, height: 200, channels: 3 as const };
  const box: RowPiece = {
    text: '1005393',
    confidence: 0.86,
    charConfidences: [0.5, 0.97, 0.99, 0.99, 0.99, 0.99, 0.32],
    charSpans: [...centres, 218 + pitch].map((c) => ({ x0: 20 + c - 4, x1: 20 + c + 4 })),
    x: 20,
    y: 50,
    w: 300,
    h: 71,
  };
  const fakeEngine = (views: DecodedText[]) => {
    const calls: number[] = [];
    const engine = {
      recognizeCrops: async (crops: readonly unknown[]) => {
        calls.push(crops.length);
        return crops.length === 2 ? [digitsOnly, digitsOnly] : views;
      },
    } as unknown as OcrEngine;
    return { engine, calls };
  };

  it.each([
    { what: 'its upper half read as the digit before the first pass\'s: the digit leaving the window', views: [view(['2', 0.75]), view(['2', 0.81]), view(), view(['2', 0.23])], want: '005392' },
    { what: 'its halves read surely as digits out of rolling order: left out, as before', views: [view(['2', 0.75]), view(), view(['6', 0.8]), view()], want: '00539' },
    { what: 'its upper half read unsurely: left out', views: [view(['2', 0.4]), view(['2', 0.45]), view(), view()], want: '00539' },
    { what: 'nothing read in it: left out', views: [view(), view(), view(), view()], want: '00539' },
  ])('$what', async ({ views, want }) => {
    const { engine, calls } = fakeEngine(views);
    expect((await rereadRow(engine, image, box, box.text, [box]))?.value).toBe(want);
    expect(calls).toEqual([2, 4]);
  });

  it('is not looked at again when the first pass read no more than the drum', async () => {
    const { engine, calls } = fakeEngine([]);
    const plain = { ...box, text: '100539', charConfidences: box.charConfidences!.slice(0, -1), charSpans: box.charSpans!.slice(0, -1) };
    expect((await rereadRow(engine, image, plain, plain.text, [plain]))?.value).toBe('00539');
    expect(calls).toEqual([2]);
  });
});
