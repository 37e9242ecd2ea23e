import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import type { PlateReadOptions } from './plate.types.js';
import { completions, createPlatePipeline, type PlateOcr, SECOND_OPINION_MIN_WIDTH } from './plate-pipeline.js';
import { distinctView, FINER_PLATE_SIDE } from './plate-modes.js';
import { bestOfViews, breakTwinTies, twinTie } from './reading-choice.js';
import { type CropRecognizer, PLATE_CHARSET } from './plate-reread.js';
import { withFoldedTwins } from './plate-text-model.js';
import { parsePlateSearch } from './plate-search.js';
import type { Box, Quad } from './plate.types.js';
import { CLOSE_UP_ZOOM, type DetectedPlate, type PlateDetection, type PlateDetector } from './plate-detector-model.js';

const options = (over: Partial<PlateReadOptions> = {}): PlateReadOptions => ({
  regions: [], strictRegion: false, textFormats: [], mode: 'normal', thresholdD: 0.2, thresholdO: 0.6,
  strictDetection: false, mmc: false, ...over,
});

/** A plain photo, tinted: a grey one (an infrared shot) gets no brightest-channel looks. */
const blank = (width: number, height: number): RawImage => {
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < data.length; i += 3) data.set([140, 128, 112], i);
  return { data, width, height, channels: 3 };
};

/** An OCR engine that sees one plate-shaped line in the middle of whatever it is shown and
 * reads it as `text` with `confidence` per character (`doubtful` at `doubtfulAt`); it records the detector sizes asked for. */
function fakeOcr(text: string, confidence: number, doubtfulAt = -1, doubtful = confidence) {
  const detSides: number[] = [];
  const reads: number[] = [];
  /** The narrowest recogniser input each read asked for (undefined: the recogniser's own). */
  const minWidths: Array<number | undefined> = [];
  const ocr: PlateOcr = {
    async detect(image, opts) {
      detSides.push(opts?.detLimitSide ?? 960);
      // Tall enough (in detector pixels) that no close-up is needed.
      const cx = image.width / 2;
      const cy = image.height / 2;
      const quad: Quad = [{ x: cx - 120, y: cy - 25 }, { x: cx + 120, y: cy - 25 }, { x: cx + 120, y: cy + 25 }, { x: cx - 120, y: cy + 25 }];
      return [{ quad, score: 0.9 }];
    },
    async recognizeCrops(crops, opts) {
      reads.push(crops.length);
      minWidths.push(opts?.minWidth);
      return crops.map(() => ({
        text,
        charConfidences: [...text].map((_, i) => (i === doubtfulAt ? doubtful : confidence)),
        alternatives: [...text].map((c, i) => [{ char: c, prob: i === doubtfulAt ? doubtful : confidence }]),
      }));
    },
  };
  return { ocr, detSides, reads, minWidths };
}

describe('plate pipeline passes', () => {
  it('does not read again a plate the coarse pass read surely, though the finer pass looks for others', async () => {
    const { ocr, detSides, reads } = fakeOcr('ABC1234', 0.98);
    const res = await createPlatePipeline(ocr).read(blank(1280, 720), options());
    expect(res.plates.map((p) => p.plate)).toEqual(['abc1234']);
    expect(detSides).toEqual([640, 960]);
    expect(reads).toEqual([1]);
  });

  it('stops after the coarse pass on a plate crop read surely (the finer pass would show it no larger)', async () => {
    const { ocr, detSides } = fakeOcr('ABC1234', 0.98);
    await createPlatePipeline(ocr).read(blank(320, 160), options());
    expect(detSides).toEqual([640]);
  });

  it('reports no plate for a line that reads as a make\'s badge, however surely', async () => {
    const { ocr } = fakeOcr('TOYOTA', 0.98);
    const res = await createPlatePipeline(ocr).read(blank(1280, 720), options());
    expect(res.plates).toEqual([]);
  });

  it.each(['normal', 'fast'] as const)('%s mode: reports no plate for a state\'s name read as a number; redaction keeps its box', async (mode) => {
    // ARIZONA as the trained reader gives it (O and I folded into 0 and 1).
    const { ocr } = fakeOcr('AR1Z0NA', 0.98);
    expect((await createPlatePipeline(ocr).read(blank(1280, 720), options({ mode }))).plates).toEqual([]);
    expect((await createPlatePipeline(ocr).read(blank(1280, 720), options({ mode: 'redaction' }))).plates).toHaveLength(1);
  });

  it('runs the finer pass when the coarse one is unsure, and reports the plate once', async () => {
    const { ocr, detSides } = fakeOcr('ABC1234', 0.72);
    const res = await createPlatePipeline(ocr).read(blank(1280, 720), options());
    expect(res.plates.map((p) => p.plate)).toEqual(['abc1234']);
    expect(detSides).toEqual([640, 960]);
  });

  it.each(['normal', 'fast'] as const)('%s mode: the 640 px pass sees a square photo at 544 x 544', async (mode) => {
    const { ocr } = fakeOcr('ABC1234', 0.98);
    const sizes: number[][] = [];
    const detect = ocr.detect.bind(ocr);
    ocr.detect = async (image, opts) => (sizes.push([image.width, image.height]), detect(image, opts));
    await createPlatePipeline(ocr).read(blank(1280, 1280), options({ mode }));
    expect(sizes[0]).toEqual([544, 544]);
  });

  it('fast mode detects once, whatever it read', async () => {
    const { ocr, detSides } = fakeOcr('ABC1234', 0.72);
    await createPlatePipeline(ocr).read(blank(1280, 720), options({ mode: 'fast' }));
    expect(detSides).toEqual([640]);
  });

  it.each([
    { name: 'a sure grammar match is read once, as photographed', confidence: 0.98, reads: [1] },
    { name: 'an unsure reading is read again with coloured emblems faded', confidence: 0.72, reads: [1, 1] },
  ])('$name', async ({ confidence, reads: expected }) => {
    const { ocr, reads } = fakeOcr('ABC1234', confidence);
    await createPlatePipeline(ocr).read(blank(1280, 720), options({ mode: 'fast' }));
    expect(reads).toEqual(expected);
  });

  it('reads again in fast mode a reading sure enough to end the search but not to skip the second look', async () => {
    const { ocr, reads } = fakeOcr('ABC1234', 0.85);
    const res = await createPlatePipeline(ocr).read(blank(1280, 720), options({ mode: 'fast' }));
    // Above fast mode's sure score (0.8), below the settled score (0.88).
    expect(res.plates[0]!.score).toBeGreaterThanOrEqual(0.8);
    expect(res.plates[0]!.score).toBeLessThan(0.88);
    expect(reads).toEqual([1, 1]);
  });

  it('reads again a sure grammar match with a doubtful character (an emblem read as a letter)', async () => {
    const { ocr, reads } = fakeOcr('ABC1234', 0.98, 3, 0.7);
    await createPlatePipeline(ocr).read(blank(1280, 720), options({ mode: 'fast' }));
    expect(reads).toEqual([1, 1]);
  });

  it('reads a line with no plate-length reading again in regular mode, however confident', async () => {
    const { ocr, reads } = fakeOcr('ABCDEFGHJK', 0.99);
    await createPlatePipeline(ocr).read(blank(1280, 720), options());
    // Both passes: nothing plate-like ends the search.
    expect(reads).toEqual([1, 1, 1, 1]);
  });

  it.each(['normal', 'fast'] as const)('%s mode reads a line shorter than any plate once per pass, however unsure', async (mode) => {
    const { ocr, reads } = fakeOcr('AB7', 0.6);
    await createPlatePipeline(ocr).read(blank(1280, 720), options({ mode }));
    expect(reads).toEqual(mode === 'normal' ? [1, 1] : [1]);
  });

  it('fast mode reads a line that fits no plate format once', async () => {
    const { ocr, reads } = fakeOcr('ABCDEFGHJK', 0.99);
    await createPlatePipeline(ocr).read(blank(1280, 720), options({ mode: 'fast' }));
    expect(reads).toEqual([1]);
  });
});

/** An OCR engine that sees two plate-shaped lines, one above the other: the upper (narrower)
 * reads `upper`, the lower (wider) `lower`; it records how many crops each recogniser run with
 * the plate charset got (legend reads, in the whole charset, are not plate reads). */
function twoLineOcr(upper: { text: string; confidence: number }, lower: { text: string; confidence: number }) {
  const reads: number[] = [];
  const line = (cx: number, cy: number, halfWidth: number): Quad => [
    { x: cx - halfWidth, y: cy - 25 }, { x: cx + halfWidth, y: cy - 25 }, { x: cx + halfWidth, y: cy + 25 }, { x: cx - halfWidth, y: cy + 25 },
  ];
  const ocr: PlateOcr = {
    async detect(image) {
      const cx = image.width / 2;
      return [{ quad: line(cx, image.height / 2 - 100, 120), score: 0.9 }, { quad: line(cx, image.height / 2 + 100, 160), score: 0.9 }];
    },
    async recognizeCrops(crops, opts) {
      if (opts?.charset) reads.push(crops.length);
      return crops.map((crop) => {
        const { text, confidence } = crop.width / crop.height > 5 ? lower : upper;
        return { text, charConfidences: [...text].map(() => confidence), alternatives: [...text].map((c) => [{ char: c, prob: confidence }]) };
      });
    },
  };
  return { ocr, reads };
}

describe('a plate reading\'s box and region', () => {
  /** One sure plate line at the same place in the photo whatever the detector is shown: x 40-60%,
   * y 44-56% of the picture (512..768 x 316.8..403.2 in a 1280 x 720 photo), tall enough at
   * 640 px that no close-up is needed. */
  const ocr: PlateOcr = {
    async detect(image) {
      const [x0, x1, y0, y1] = [0.4 * image.width, 0.6 * image.width, 0.44 * image.height, 0.56 * image.height];
      return [{ quad: [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }], score: 0.9 }];
    },
    async recognizeCrops(crops) {
      return crops.map(() => ({ text: 'ABC1234', charConfidences: Array(7).fill(0.98), alternatives: [...'ABC1234'].map((char) => [{ char, prob: 0.98 }]) }));
    },
  };
  const boxIn = async (mode: PlateReadOptions['mode']) => (await createPlatePipeline(ocr).read(blank(1280, 720), options({ mode }))).plates[0]!.box;

  it('box the plate around the number: a quarter of a line above it, a tenth below, a little at each side', async () => {
    // Text 256 x 86.4 px: 0.25 x 86.4 = 21.6 above, 8.6 below, 0.04 x 256 = 10.2 at each side.
    expect(await boxIn('normal')).toEqual({ xmin: 502, ymin: 295, xmax: 778, ymax: 412 });
    expect(await boxIn('fast')).toEqual({ xmin: 502, ymin: 295, xmax: 778, ymax: 412 });
  });

  it('give a number that fits Texas and Brazil to the region whose font it is drawn in', async () => {
    // The line is 256 x 86 px: 7 characters at 0.43 of their height, a narrow North American font.
    const narrow = (await createPlatePipeline(ocr).read(blank(1280, 720), options())).plates[0]!;
    expect([narrow.plate, narrow.region.code]).toEqual(['abc1234', 'us']);
    // The same line on a photo twice as wide: 7 characters at 0.85, a wide Brazilian font.
    const wide = (await createPlatePipeline(ocr).read(blank(2560, 720), options())).plates[0]!;
    expect([wide.plate, wide.region.code]).toEqual(['abc1234', 'br']);
    // A region the client names stands.
    const named = (await createPlatePipeline(ocr).read(blank(2560, 720), options({ regions: ['us'] }))).plates[0]!;
    expect(named.region.code).toBe('us');
  });

  it('keep a plate of the country a strict client names: Slovakia, whose format fits France too', async () => {
    const { ocr: slovak } = fakeOcr('RK755AJ', 0.97);
    const res = await createPlatePipeline(slovak).read(blank(1280, 720), options({ regions: ['sk'], strictRegion: true }));
    expect(res.plates.map((p) => [p.plate, p.region.code])).toEqual([['rk755aj', 'sk']]);
  });

  it('name the state the plate\'s legend names, in regular mode', async () => {
    // The number's line, and above it a smaller line that reads California in the whole charset.
    const withLegend: PlateOcr = {
      async detect(image) {
        const at = (x0: number, x1: number, y0: number, y1: number): Quad => [
          { x: x0 * image.width, y: y0 * image.height }, { x: x1 * image.width, y: y0 * image.height },
          { x: x1 * image.width, y: y1 * image.height }, { x: x0 * image.width, y: y1 * image.height }];
        return [{ quad: at(0.4, 0.6, 0.44, 0.56), score: 0.9 }, { quad: at(0.43, 0.57, 0.37, 0.42), score: 0.8 }];
      },
      async recognizeCrops(crops, opts) {
        const text = opts?.charset ? 'ABC1234' : 'California';
        return crops.map(() => ({ text, charConfidences: Array(text.length).fill(0.98), alternatives: [...text].map((char) => [{ char, prob: 0.98 }]) }));
      },
    };
    const region = async (over: Partial<PlateReadOptions>) => (await createPlatePipeline(withLegend).read(blank(1280, 720), options(over))).plates.map((p) => [p.plate, p.region.code]);
    expect(await region({})).toEqual([['abc1234', 'us-ca']]);
    // Fast mode does not read legends; a client naming another country keeps its region.
    expect(await region({ mode: 'fast' })).toEqual([['abc1234', 'us']]);
    expect(await region({ regions: ['br'] })).toEqual([['abc1234', 'br']]);
  });

  it('give a plate with a European band to the country its sign names, or whose format it fits', async () => {
    // The number's line as above (512..768 x 316.8..403.2, 86.4 px tall); a band 0.6 line heights
    // wide, 0.3 left of it, as tall as a European plate (0.73 heights above and below the middle).
    const photo = blank(1280, 720);
    for (let y = 297; y < 423; y++) for (let x = 434; x < 486; x++) photo.data.set([0, 51, 153], 3 * (y * 1280 + x));
    const signed = (sign: string, confidence: number): PlateOcr => ({
      detect: ocr.detect,
      async recognizeCrops(crops, opts) {
        const [text, prob] = opts?.charset === PLATE_CHARSET ? ['ABC1234', 0.98] : [sign, confidence];
        return crops.map(() => ({ text, charConfidences: Array(text.length).fill(prob), alternatives: [...text].map((char) => [{ char, prob }]) }));
      },
    });
    const region = async (reader: PlateOcr, over: Partial<PlateReadOptions> = {}, picture = photo) => (await createPlatePipeline(reader).read(picture, options(over))).plates.map((p) => [p.plate, p.region.code]);
    expect(await region(signed('PL', 0.95))).toEqual([['abc1234', 'pl']]);
    // A sign read unsurely, or fast mode, which reads none: the first country whose format fits.
    expect(await region(signed('PL', 0.5))).toEqual([['abc1234', 'de']]);
    expect(await region(signed('PL', 0.95), { mode: 'fast' })).toEqual([['abc1234', 'de']]);
    // Without the band, the same number in the same narrow font is North American.
    expect(await region(signed('PL', 0.95), {}, blank(1280, 720))).toEqual([['abc1234', 'us']]);
  });

  it('box the whole plate and more in redaction mode, which blurs the box', async () => {
    const usual = await boxIn('normal');
    const redaction = await boxIn('redaction');
    expect(redaction.xmin).toBeLessThan(usual.xmin);
    expect(redaction.ymin).toBeLessThan(usual.ymin);
    expect(redaction.xmax).toBeGreaterThan(usual.xmax);
    expect(redaction.ymax).toBeGreaterThan(usual.ymax);
  });
});

describe('second looks beside a settled plate', () => {
  it.each([
    { name: 'text that fits no plate format is not read again once another line is a settled plate', upper: 0.98, lower: { text: 'ABCDEFGHJK', confidence: 0.99 }, reads: [2] },
    { name: 'it is read again in regular mode when no line is settled', upper: 0.72, lower: { text: 'ABCDEFGHJK', confidence: 0.99 }, reads: [2, 2, 2, 2], mode: 'normal' as const },
    { name: 'fast mode does not read it again, settled plate or not', upper: 0.72, lower: { text: 'ABCDEFGHJK', confidence: 0.99 }, reads: [2, 1] },
    { name: 'an unsure plate-like line is read again beside a settled plate (a second plate)', upper: 0.98, lower: { text: 'XYZ789', confidence: 0.7 }, reads: [2, 1] },
  ])('$name', async ({ upper, lower, reads: expected, mode = 'fast' as const }) => {
    const { ocr, reads } = twoLineOcr({ text: 'ABC1234', confidence: upper }, lower);
    const res = await createPlatePipeline(ocr).read(blank(1280, 720), options({ mode }));
    expect(res.plates.map((p) => p.plate)).toContain('abc1234');
    expect(reads).toEqual(expected);
  });
});

describe('text around a plate', () => {
  it.each([
    { name: 'a model badge four line heights above a sure plate is no plate', upper: { text: 'SANDERO', confidence: 0.97 }, lower: { text: 'ABC1234', confidence: 0.98 }, want: ['abc1234'] },
    { name: 'beside an unsure plate a surer badge stands', upper: { text: 'SANDERO', confidence: 0.99 }, lower: { text: 'ABC1234', confidence: 0.7 }, want: ['abc1234', 'sandero'] },
    { name: 'beside an unsure plate a less sure badge goes', upper: { text: 'SANDERO', confidence: 0.9 }, lower: { text: 'ABC1234', confidence: 0.78 }, want: ['abc1234'] },
    { name: 'beside an unsure plate a less sure number stands', upper: { text: 'XYZ789', confidence: 0.76 }, lower: { text: 'ABC1234', confidence: 0.78 }, want: ['abc1234', 'xyz789'] },
    { name: 'a sure reading without a digit (a badge fitting a generic format) clears nothing', upper: { text: 'ABC1234', confidence: 0.75 }, lower: { text: 'SANDERO', confidence: 0.99 }, want: ['abc1234', 'sandero'] },
  ])('$name', async ({ upper, lower, want }) => {
    const { ocr } = twoLineOcr(upper, lower);
    for (const mode of ['normal', 'fast'] as const) {
      const res = await createPlatePipeline(ocr).read(blank(1280, 720), options({ mode }));
      expect(res.plates.map((p) => p.plate).sort()).toEqual(want);
    }
  });
});

/** An OCR engine that sees a near car's plate (ABC1234, wide) at every detector size and a
 * far car's (XYZ789, narrower) only at 960 px; it reads both surely and records the texts read. */
function twoCarsOcr() {
  const read: string[] = [];
  const line = (view: RawImage, fx: number, fy: number, halfWidth: number): Quad => {
    const [cx, cy] = [fx * view.width, fy * view.height];
    return [{ x: cx - halfWidth, y: cy - 25 }, { x: cx + halfWidth, y: cy - 25 }, { x: cx + halfWidth, y: cy + 25 }, { x: cx - halfWidth, y: cy + 25 }];
  };
  const ocr: PlateOcr = {
    async detect(view, opts) {
      const near = { quad: line(view, 0.25, 0.5, 120), score: 0.9 };
      return opts?.detLimitSide === 960 ? [near, { quad: line(view, 0.9, 0.9, 80), score: 0.9 }] : [near];
    },
    async recognizeCrops(crops) {
      return crops.map((crop) => {
        const text = crop.width / crop.height > 3.8 ? 'ABC1234' : 'XYZ789';
        read.push(text);
        return { text, charConfidences: [...text].map(() => 0.98), alternatives: [...text].map((c) => [{ char: c, prob: 0.98 }]) };
      });
    },
  };
  return { ocr, read };
}

describe('vehicles', () => {
  const car = { type: 'Sedan' as const, score: 0.8, box: { xmin: 300, ymin: 200, xmax: 980, ymax: 620 } };
  /** A vehicle finder that finds `car` in any photo and counts how often it was asked. */
  const finder = () => {
    const asked = { n: 0 };
    return { asked, vehicles: { detect: async () => (asked.n++, [car]) } };
  };

  it('are looked for where a call asks (mmc, strict detection), always with PLATE_VEHICLES=always, and for plates on no vehicle outside fast mode', async () => {
    const { ocr } = fakeOcr('ABC1234', 0.98);
    const { asked, vehicles } = finder();
    const pipeline = createPlatePipeline(ocr, { vehicles });
    // Fast mode keeps to its own passes: a plate on no vehicle stays so.
    const fast = await pipeline.read(blank(1280, 720), options({ mode: 'fast' }));
    expect(asked.n).toBe(0);
    expect(fast.plates[0]!.vehicle).toBeUndefined();
    // Regular and redaction mode ask the vehicle finder for the plate no vehicle holds.
    for (const mode of ['normal', 'redaction'] as const) {
      const res = await pipeline.read(blank(1280, 720), options({ mode }));
      expect(res.plates[0]!.vehicle, mode).toMatchObject({ score: 0.8, box: car.box });
    }
    expect(asked.n).toBe(2);
    for (const over of [{ mmc: true }, { strictDetection: true }, { mode: 'fast' as const, mmc: true }]) {
      const res = await pipeline.read(blank(1280, 720), options(over));
      expect(res.plates[0]!.vehicle, JSON.stringify(over)).toMatchObject({ score: 0.8, box: car.box });
    }
    expect(asked.n).toBe(5);
    const always = await createPlatePipeline(ocr, { vehicles, vehicleLookups: 'always' }).read(blank(1280, 720), options({ mode: 'fast' }));
    expect(always.plates[0]!.vehicle).toMatchObject({ score: 0.8, box: car.box });
    expect(asked.n).toBe(6);
  });

  it('are not looked for around a plate crop, which shows no vehicle', async () => {
    const { ocr } = fakeOcr('ABC1234', 0.98);
    const { asked, vehicles } = finder();
    const res = await createPlatePipeline(ocr, { vehicles }).read(blank(320, 100), options());
    expect(res.plates.map((p) => p.plate)).toEqual(['abc1234']);
    expect(res.plates[0]!.vehicle).toBeUndefined();
    expect(asked.n).toBe(0);
  });
});

/** A detection with these plates and no vehicles (a model without the vehicle head). */
const platesOnly = (plates: DetectedPlate[]): PlateDetection => ({ plates, vehicles: [] });

describe('the plate detector first', () => {
  /** A plate detector that boxes `boxes` (photo pixels) in any photo, at 0.9. */
  const detector = (boxes: Box[]): PlateDetector => ({ detect: async () => platesOnly(boxes.map((box) => ({ box, score: 0.9 }))) });
  /** The sizes of the pictures the text detector was shown. */
  function seenSizes(ocr: PlateOcr): number[][] {
    const sizes: number[][] = [];
    const detect = ocr.detect.bind(ocr);
    ocr.detect = async (image, opts) => (sizes.push([image.width, image.height]), detect(image, opts));
    return sizes;
  }
  const plateBox: Box = { xmin: 560, ymin: 330, xmax: 720, ymax: 390 };

  it.each(['normal', 'fast'] as const)('%s mode reads the plate in its box from a close-up, and the text detector never sees the whole photo', async (mode) => {
    const { ocr } = fakeOcr('ABC1234', 0.98);
    const sizes = seenSizes(ocr);
    const res = await createPlatePipeline(ocr, { plateDetector: detector([plateBox]) }).read(blank(1280, 720), options({ mode }));
    expect(res.plates.map((p) => p.plate)).toEqual(['abc1234']);
    const b = res.plates[0]!.box;
    expect((b.xmin + b.xmax) / 2).toBeCloseTo((plateBox.xmin + plateBox.xmax) / 2, -1);
    expect((b.ymin + b.ymax) / 2).toBeCloseTo((plateBox.ymin + plateBox.ymax) / 2, -1);
    // Only close-ups: every picture is far smaller than the photo's 640 px view.
    expect(sizes.length).toBeGreaterThan(0);
    for (const [w, h] of sizes) expect(w! * h!).toBeLessThan(640 * 360 / 2);
  });

  it('regular mode falls back to the text passes where the detector finds nothing, and stops at their sure plate', async () => {
    const { ocr, detSides } = fakeOcr('ABC1234', 0.98);
    const res = await createPlatePipeline(ocr, { plateDetector: detector([]) }).read(blank(1280, 720), options());
    expect(res.plates.map((p) => p.plate)).toEqual(['abc1234']);
    expect(detSides).toEqual([640]);
  });

  it('regular mode runs both text passes behind a box it read unsurely', async () => {
    const { ocr, detSides } = fakeOcr('ABC1234', 0.72);
    const res = await createPlatePipeline(ocr, { plateDetector: detector([plateBox]) }).read(blank(1280, 720), options());
    expect(res.plates.map((p) => p.plate)).toEqual(['abc1234']);
    expect(detSides.slice(-2)).toEqual([640, 960]);
  });

  it.each([[0.95, false], [0.8, true]] as const)('regular mode, behind a generic-shaped plate read surely in a box boxed at %s, runs the text passes: %s', async (score, textPasses) => {
    // A US vanity plate: five characters fit only a generic shape, which no score makes sure.
    const { ocr } = fakeOcr('853FL', 0.98);
    const sizes = seenSizes(ocr);
    const sure: PlateDetector = { detect: async () => platesOnly([{ box: plateBox, score }]) };
    const res = await createPlatePipeline(ocr, { plateDetector: sure }).read(blank(1280, 720), options());
    expect(res.plates.map((p) => [p.plate, p.score < 0.88])).toEqual([['853fl', true]]);
    expect(sizes.some(([w, h]) => w! * h! >= 640 * 360 / 2)).toBe(textPasses);
  });

  it('fast mode reads nothing where the detector boxes nothing, shrunk, as it is or larger', async () => {
    const { ocr, detSides } = fakeOcr('ABC1234', 0.98);
    const zooms: Array<number | undefined> = [];
    const sides: Array<number | undefined> = [];
    const none: PlateDetector = { detect: async (_image, opts) => (zooms.push(opts?.zoom), sides.push(opts?.side), platesOnly([])) };
    const res = await createPlatePipeline(ocr, { plateDetector: none }).read(blank(1280, 720), options({ mode: 'fast' }));
    expect(res.plates).toEqual([]);
    expect(detSides).toEqual([]);
    // The first look, the photo shrunk, and the larger canvas.
    expect(zooms).toEqual([undefined, CLOSE_UP_ZOOM, undefined]);
    expect(sides).toEqual([640, undefined, FINER_PLATE_SIDE]);
  });

  it('looks at the photo shrunk only where the detector boxed nothing surely, and reads a close-up boxed in pieces whole', async () => {
    const zooms: Array<number | undefined> = [];
    const piece: Box = { xmin: 500, ymin: 250, xmax: 660, ymax: 400 };
    const whole: Box = { xmin: 40, ymin: 60, xmax: 1240, ymax: 660 };
    const looking = (surest: number): PlateDetector => ({ detect: async (_image, opts) => (zooms.push(opts?.zoom), platesOnly([{ box: opts?.zoom ? whole : piece, score: opts?.zoom ? 0.85 : surest }])) });
    const { ocr } = fakeOcr('ABC1234', 0.98);
    await createPlatePipeline(ocr, { plateDetector: looking(0.9) }).read(blank(1280, 720), options({ mode: 'fast' }));
    expect(zooms).toEqual([undefined]);
    zooms.length = 0;
    const sizes = seenSizes(ocr);
    const res = await createPlatePipeline(ocr, { plateDetector: looking(0.5) }).read(blank(1280, 720), options({ mode: 'fast' }));
    expect(zooms).toEqual([undefined, CLOSE_UP_ZOOM]);
    expect(res.plates.map((p) => p.plate)).toEqual(['abc1234']);
    // Read as a crop: the text detector saw the whole (shrunk) photo, not a close-up of the piece.
    expect(sizes[0]![0]! / sizes[0]![1]!).toBeCloseTo(1280 / 720, 0);
  });

  it.each(['normal', 'fast'] as const)('%s mode reads a close-up, whose plate the detector boxes only in the photo shrunk, as a plate crop', async (mode) => {
    const { ocr } = fakeOcr('ABC1234', 0.98);
    const sizes = seenSizes(ocr);
    const whole: Box = { xmin: 40, ymin: 60, xmax: 1240, ymax: 660 };
    const zooms: Array<number | undefined> = [];
    const closeUps: PlateDetector = { detect: async (_image, opts) => (zooms.push(opts?.zoom), platesOnly(opts?.zoom ? [{ box: whole, score: 0.9 }] : [])) };
    const res = await createPlatePipeline(ocr, { plateDetector: closeUps }).read(blank(1280, 720), options({ mode }));
    expect(res.plates.map((p) => p.plate)).toEqual(['abc1234']);
    expect(zooms).toEqual([undefined, CLOSE_UP_ZOOM]);
    // The text detector saw what it sees of a 320 x 180 crop, and the box is in the photo's pixels.
    const crop = fakeOcr('ABC1234', 0.98);
    const cropSizes = seenSizes(crop.ocr);
    await createPlatePipeline(crop.ocr, { plateDetector: closeUps }).read(blank(320, 180), options({ mode }));
    expect(sizes[0]).toEqual(cropSizes[0]);
    expect(res.plates[0]!.box.xmax).toBeGreaterThan(320);
  });

  it('leaves a plate crop to the text passes: the detector knows plates in scenes', async () => {
    const { ocr, detSides } = fakeOcr('ABC1234', 0.98);
    let asked = 0;
    const counting: PlateDetector = { detect: async () => (asked++, platesOnly([])) };
    const res = await createPlatePipeline(ocr, { plateDetector: counting }).read(blank(320, 160), options({ mode: 'fast' }));
    expect(res.plates.map((p) => p.plate)).toEqual(['abc1234']);
    expect(asked).toBe(0);
    expect(detSides).toEqual([640]);
  });

  it('reads photos with the reader and plate crops with the crop reader, which is no second opinion of itself', async () => {
    const engine = fakeOcr('7ABC123', 0.99);
    const reader = fakeOcr('7ABC123', 0.99);
    const pipeline = createPlatePipeline(engine.ocr, { reader: reader.ocr, cropReader: engine.ocr, secondOpinion: engine.ocr, plateDetector: detector([plateBox]) });
    await pipeline.read(blank(1280, 720), options());
    expect([reader.reads.length > 0, engine.reads.length]).toEqual([true, 0]);
    const crop = await pipeline.read(blank(320, 160), options());
    expect(crop.plates.map((p) => p.plate)).toEqual(['7abc123']);
    expect(engine.reads.length).toBeGreaterThan(0);
    const readerReads = reader.reads.length;
    // An unsure crop: the crop reader is not asked again as the second opinion.
    const unsure = fakeOcr('7AEC123', 0.99, 2, 0.4);
    await createPlatePipeline(unsure.ocr, { cropReader: unsure.ocr }).read(blank(320, 160), options());
    const alone = unsure.reads.length;
    await createPlatePipeline(unsure.ocr, { reader: reader.ocr, cropReader: unsure.ocr, secondOpinion: unsure.ocr }).read(blank(320, 160), options());
    expect(unsure.reads.length).toBe(2 * alone);
    expect(reader.reads.length).toBe(readerReads);
  });

  const contains = (outer: Box, inner: Box) => outer.xmin <= inner.xmin && outer.ymin <= inner.ymin && outer.xmax >= inner.xmax && outer.ymax >= inner.ymax;

  it('redaction returns the boxes it could not read, unread, and only redaction does', async () => {
    const { ocr } = fakeOcr('', 0.9);
    const other: Box = { xmin: 100, ymin: 500, xmax: 220, ymax: 540 };
    const found: PlateDetector = { detect: async () => platesOnly([{ box: plateBox, score: 0.9 }, { box: other, score: 0.25 }, { box: { xmin: 900, ymin: 100, xmax: 1000, ymax: 130 }, score: 0.15 }]) };
    const res = await createPlatePipeline(ocr, { plateDetector: found }).read(blank(1280, 720), options({ mode: 'redaction' }));
    // The box at 0.15 is under the caller's detection threshold (0.2).
    expect(res.plates.map((p) => [p.plate, p.score, p.dscore])).toEqual([['', 0, 0.9], ['', 0, 0.25]]);
    expect(contains(res.plates[0]!.box, plateBox) && contains(res.plates[1]!.box, other)).toBe(true);
    expect((await createPlatePipeline(ocr, { plateDetector: found }).read(blank(1280, 720), options())).plates).toEqual([]);
    // Boxes left unread are mostly not plates: they do not send the photo to the vehicle finder.
    let asked = 0;
    await createPlatePipeline(ocr, { plateDetector: found, vehicles: { detect: async () => (asked++, []) } }).read(blank(1280, 720), options({ mode: 'redaction' }));
    expect(asked).toBe(0);
  });

  it('redaction also returns the plates only the finer look boxes, once each; regular mode takes no finer look', async () => {
    const { ocr } = fakeOcr('', 0.9);
    const far: Box = { xmin: 1000, ymin: 600, xmax: 1040, ymax: 615 };
    const sides: Array<number | undefined> = [];
    // The first look boxes the near plate; the finer one boxes it again, and the far one.
    const looking: PlateDetector = {
      detect: async (_image, opts) => (sides.push(opts?.side), platesOnly(opts?.side === FINER_PLATE_SIDE ? [{ box: plateBox, score: 0.92 }, { box: far, score: 0.6 }] : [{ box: plateBox, score: 0.9 }])),
    };
    const res = await createPlatePipeline(ocr, { plateDetector: looking }).read(blank(1280, 720), options({ mode: 'redaction' }));
    expect(res.plates.map((p) => p.dscore)).toEqual([0.9, 0.6]);
    expect(contains(res.plates[0]!.box, plateBox) && contains(res.plates[1]!.box, far)).toBe(true);
    expect(sides).toEqual([640, FINER_PLATE_SIDE]);
    sides.length = 0;
    await createPlatePipeline(ocr, { plateDetector: looking }).read(blank(1280, 720), options());
    expect(sides).toEqual([640]);
    // A photo no larger than the first look's canvas is not looked at again: it would look the same.
    sides.length = 0;
    await createPlatePipeline(ocr, { plateDetector: looking }).read(blank(640, 480), options({ mode: 'redaction' }));
    expect(sides).toEqual([640]);
  });

  it('regular mode reads a plate only the finer look boxes where the server asks for small plates (PLATE_SEARCH=small-plates)', async () => {
    const far: Box = { xmin: 1000, ymin: 600, xmax: 1060, ymax: 622 };
    const sides: Array<number | undefined> = [];
    const looking: PlateDetector = { detect: async (_image, opts) => (sides.push(opts?.side), platesOnly(opts?.side === FINER_PLATE_SIDE ? [{ box: far, score: 0.6 }] : [])) };
    const boxesRead = async (search: 'every-plate' | 'small-plates', mode: 'normal' | 'fast') => {
      const { ocr } = fakeOcr('ABC1234', 0.98);
      const sizes = seenSizes(ocr);
      sides.length = 0;
      const res = await createPlatePipeline(ocr, { plateDetector: looking, search }).read(blank(1280, 720), options({ mode }));
      // A close-up of the far box is a picture smaller than the photo's 640 px view.
      return { plates: res.plates.map((p) => p.plate), closeUps: sizes.filter(([w, h]) => w! * h! < 640 * 360 / 2).length, sides: [...sides] };
    };
    const small = await boxesRead('small-plates', 'normal');
    expect(small.sides).toEqual([640, undefined, FINER_PLATE_SIDE]);
    expect(small.closeUps).toBeGreaterThan(0);
    expect(small.plates).toEqual(['abc1234']);
    // The default search takes the first look alone (and the close-up check).
    const one = await boxesRead('every-plate', 'normal');
    expect(one.sides).toEqual([640, undefined]);
    expect(one.closeUps).toBe(0);
  });

  it('fast mode looks again on the larger canvas only where the first look boxed no plate at 0.6 or more', async () => {
    const far: Box = { xmin: 1000, ymin: 600, xmax: 1060, ymax: 622 };
    const sides: Array<number | undefined> = [];
    const read = async (firstLook: Array<{ box: Box; score: number }>) => {
      const { ocr } = fakeOcr('ABC1234', 0.98);
      sides.length = 0;
      const looking: PlateDetector = { detect: async (_image, opts) => (sides.push(opts?.side), platesOnly(opts?.side === FINER_PLATE_SIDE ? [{ box: far, score: 0.6 }] : firstLook)) };
      const res = await createPlatePipeline(ocr, { plateDetector: looking }).read(blank(1280, 720), options({ mode: 'fast' }));
      return { plates: res.plates.map((p) => p.plate), sides: [...sides] };
    };
    // Nothing boxed, or only a box under 0.6 (a grille): the far plate is read from the second look.
    expect(await read([])).toEqual({ plates: ['abc1234'], sides: [640, undefined, FINER_PLATE_SIDE] });
    expect((await read([{ box: { xmin: 100, ymin: 100, xmax: 200, ymax: 130 }, score: 0.5 }])).sides).toEqual([640, undefined, FINER_PLATE_SIDE]);
    // A box at 0.6 or more: one look (and the close-up check under 0.8).
    expect((await read([{ box: plateBox, score: 0.7 }])).sides).toEqual([640, undefined]);
    expect((await read([{ box: plateBox, score: 0.9 }])).sides).toEqual([640]);
  });

  it('with small plates asked for, regular mode closes up on the finer look\'s box beside a box the first look was unsure of where that box gave no sure plate', async () => {
    const shifted: Box = { xmin: plateBox.xmin + 30, ymin: plateBox.ymin, xmax: plateBox.xmax + 30, ymax: plateBox.ymax };
    const closeUps = async (firstScore: number, reading: ReturnType<typeof fakeOcr>) => {
      const looking: PlateDetector = { detect: async (_image, opts) => platesOnly([{ box: opts?.side === FINER_PLATE_SIDE ? shifted : plateBox, score: opts?.side === FINER_PLATE_SIDE ? 0.7 : firstScore }]) };
      const sizes = seenSizes(reading.ocr);
      const res = await createPlatePipeline(reading.ocr, { plateDetector: looking, search: 'small-plates' }).read(blank(1280, 720), options());
      expect(res.plates.map((p) => p.plate)).toEqual(['abc1234']);
      return sizes.filter(([w, h]) => w! * h! < 640 * 360 / 2).length;
    };
    // A sure first box: the finer look's box of the same plate is dropped.
    expect(await closeUps(0.9, fakeOcr('ABC1234', 0.98))).toBe(1);
    // An unsure first box read surely: the plate is not read again.
    expect(await closeUps(0.5, fakeOcr('ABC1234', 0.98))).toBe(1);
    // An unsure first box read unsurely: the finer look's box is read as well.
    expect(await closeUps(0.5, fakeOcr('ABC1234', 0.8))).toBe(2);
  });

  it('redaction returns a close-up\'s whole plate, which the detector boxes only in the photo shrunk', async () => {
    const { ocr } = fakeOcr('', 0.9);
    const whole: Box = { xmin: 40, ymin: 60, xmax: 1240, ymax: 660 };
    const closeUps: PlateDetector = { detect: async (_image, opts) => platesOnly(opts?.zoom ? [{ box: whole, score: 0.9 }] : [{ box: { xmin: 500, ymin: 250, xmax: 660, ymax: 400 }, score: 0.4 }]) };
    const res = await createPlatePipeline(ocr, { plateDetector: closeUps }).read(blank(1280, 720), options({ mode: 'redaction' }));
    expect(res.plates.some((p) => contains(p.box, whole))).toBe(true);
  });

  it('redaction widens a plate read in part to the whole box the detector found', async () => {
    const { ocr } = fakeOcr('ABC1234', 0.98);
    const wide: Box = { xmin: 400, ymin: 300, xmax: 880, ymax: 420 };
    const res = await createPlatePipeline(ocr, { plateDetector: detector([wide]) }).read(blank(1280, 720), options({ mode: 'redaction' }));
    expect(res.plates.map((p) => p.plate)).toEqual(['abc1234']);
    expect(contains(res.plates[0]!.box, wide)).toBe(true);
  });

  it('puts every plate on the vehicle the detector found in the same pass, without mmc; the COCO finder answers where asked', async () => {
    const { ocr } = fakeOcr('ABC1234', 0.98);
    const wide: Box = { xmin: 400, ymin: 300, xmax: 880, ymax: 420 };
    const car = { type: 'Sedan' as const, score: 0.6, box: { xmin: 200, ymin: 100, xmax: 1100, ymax: 700 } };
    const parked = { type: 'SUV' as const, score: 0.5, box: { xmin: 0, ymin: 0, xmax: 150, ymax: 200 } };
    const withVehicles: PlateDetector = { detect: async (_image, opts) => ({ plates: opts?.zoom ? [] : [{ box: wide, score: 0.9 }], vehicles: [car, parked] }) };
    const coco = { type: 'Pickup Truck' as const, score: 0.7, box: { xmin: 210, ymin: 110, xmax: 1090, ymax: 690 } };
    let asked = 0;
    const pipeline = createPlatePipeline(ocr, { plateDetector: withVehicles, vehicles: { detect: async () => (asked++, [coco]) } });
    for (const mode of ['normal', 'fast', 'redaction'] as const) {
      const res = await pipeline.read(blank(1280, 720), options({ mode }));
      expect(res.plates[0]!.vehicle, mode).toMatchObject({ score: 0.6, box: car.box });
      // A vehicle without a plate is kept apart (detection_mode=vehicle shows it).
      expect(res.vehiclesWithoutPlate.map((v) => v.vehicle.box), mode).toEqual([parked.box]);
    }
    expect(asked).toBe(0);
    const mmc = await pipeline.read(blank(1280, 720), options({ mmc: true }));
    expect(mmc.plates[0]!.vehicle).toMatchObject({ score: 0.7, box: coco.box });
    expect(asked).toBe(1);
  });

  it('asks the COCO finder for a plate the vehicle head puts on no vehicle, and takes its vehicles', async () => {
    const { ocr } = fakeOcr('ABC1234', 0.98);
    const wide: Box = { xmin: 400, ymin: 300, xmax: 880, ymax: 420 };
    const parked = { type: 'SUV' as const, score: 0.5, box: { xmin: 0, ymin: 0, xmax: 150, ymax: 200 } };
    const headMissesTheCar: PlateDetector = { detect: async (_image, opts) => ({ plates: opts?.zoom ? [] : [{ box: wide, score: 0.9 }], vehicles: [parked] }) };
    const coco = { type: 'Pickup Truck' as const, score: 0.7, box: { xmin: 210, ymin: 110, xmax: 1090, ymax: 690 } };
    let asked = 0;
    const pipeline = createPlatePipeline(ocr, { plateDetector: headMissesTheCar, vehicles: { detect: async () => (asked++, [coco]) } });
    const res = await pipeline.read(blank(1280, 720), options());
    expect(res.plates[0]!.vehicle).toMatchObject({ score: 0.7, box: coco.box });
    expect(asked).toBe(1);
    const fast = await pipeline.read(blank(1280, 720), options({ mode: 'fast' }));
    expect(fast.plates[0]!.vehicle).toBeUndefined();
    expect(asked).toBe(1);
    // PLATE_VEHICLES=head: the head's vehicles only, unless the call asks for more.
    const headOnly = createPlatePipeline(ocr, { plateDetector: headMissesTheCar, vehicles: { detect: async () => (asked++, [coco]) }, vehicleLookups: 'head' });
    expect((await headOnly.read(blank(1280, 720), options())).plates[0]!.vehicle).toBeUndefined();
    expect(asked).toBe(1);
    expect((await headOnly.read(blank(1280, 720), options({ mmc: true }))).plates[0]!.vehicle).toMatchObject({ score: 0.7, box: coco.box });
    expect(asked).toBe(2);
  });

  it('still reads the plates when the COCO finder it asked on its own fails', async () => {
    const { ocr } = fakeOcr('ABC1234', 0.98);
    const wide: Box = { xmin: 400, ymin: 300, xmax: 880, ymax: 420 };
    const headMissesTheCar: PlateDetector = { detect: async (_image, opts) => ({ plates: opts?.zoom ? [] : [{ box: wide, score: 0.9 }], vehicles: [] }) };
    const broken = createPlatePipeline(ocr, { plateDetector: headMissesTheCar, vehicles: { detect: async () => { throw new Error('tfjs failed to load'); } } });
    const res = await broken.read(blank(1280, 720), options());
    expect(res.plates.map((p) => [p.plate, p.vehicle])).toEqual([['abc1234', undefined]]);
  });

  it('tells a Brazilian ABC1234 from a Texan one by the shape of a plate box it found no text line in', async () => {
    const blind: PlateOcr = {
      detect: async () => [],
      recognizeCrops: async (crops) => crops.map(() => ({ text: 'ABC1234', charConfidences: Array(7).fill(0.98), alternatives: [...'ABC1234'].map((c) => [{ char: c, prob: 0.98 }]) })),
    };
    const regionOf = async (width: number) => {
      const plate: Box = { xmin: 400, ymin: 300, xmax: 400 + width, ymax: 400 };
      const found: PlateDetector = { detect: async (_image, opts) => platesOnly(opts?.zoom ? [] : [{ box: plate, score: 0.9 }]) };
      const res = await createPlatePipeline(blind, { plateDetector: found }).read(blank(1280, 720), options());
      return res.plates.map((p) => [p.plate, p.region.code]);
    };
    // 400 x 130 mm: Brazil's plates; 12 x 6 in: North America's.
    expect(await regionOf(310)).toEqual([['abc1234', 'br']]);
    expect((await regionOf(200))[0]?.[1]).not.toBe('br');
  });

  it('leaves out boxes under the caller\'s detection threshold', async () => {
    const { ocr, reads } = fakeOcr('ABC1234', 0.98);
    const weak: PlateDetector = { detect: async () => platesOnly([{ box: plateBox, score: 0.25 }]) };
    const res = await createPlatePipeline(ocr, { plateDetector: weak }).read(blank(1280, 720), options({ mode: 'fast', thresholdD: 0.3 }));
    expect(res.plates).toEqual([]);
    expect(reads).toEqual([]);
  });
});

describe('a photo with several cars', () => {
  it('reads a far car\'s plate beside a near one read surely, each once', async () => {
    const { ocr, read } = twoCarsOcr();
    const res = await createPlatePipeline(ocr).read(blank(1280, 720), options());
    expect(res.plates.map((p) => p.plate).sort()).toEqual(['abc1234', 'xyz789']);
    expect(read).toEqual(['ABC1234', 'XYZ789']);
  });

  it('stops at the near car\'s sure plate when the server is set to (PLATE_SEARCH=first-sure)', async () => {
    const { ocr, read } = twoCarsOcr();
    const res = await createPlatePipeline(ocr, { search: 'first-sure' }).read(blank(1280, 720), options());
    expect(res.plates.map((p) => p.plate)).toEqual(['abc1234']);
    expect(read).toEqual(['ABC1234']);
  });

  it.each([
    [undefined, 'every-plate'], ['', 'every-plate'], [' First-Sure ', 'first-sure'], ['every-plate', 'every-plate'], ['small-plates', 'small-plates'],
  ])('PLATE_SEARCH %j is %s', (value, want) => expect(parsePlateSearch(value)).toBe(want));

  it('refuses an unknown PLATE_SEARCH, naming the choices', () => {
    expect(() => parsePlateSearch('first')).toThrow('PLATE_SEARCH must be one of every-plate, first-sure, small-plates, got "first"');
  });
});

/** A light 1280 x 720 photo with a plate number of `count` dark characters 10 px wide every 14 px
 * from x 600, on rows `top` to `top` + 20. */
function numberPhoto(count: number, top: number): RawImage {
  const photo = { data: Buffer.alloc(1280 * 720 * 3, 230), width: 1280, height: 720, channels: 3 } as RawImage;
  for (let i = 0; i < count; i++) for (let y = top; y < top + 20; y++) photo.data.fill(30, (y * 1280 + 600 + 14 * i) * 3, (y * 1280 + 610 + 14 * i) * 3);
  return photo;
}

const rect = (x0: number, y0: number, x1: number, y1: number): Quad => [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }];

/** The bounds of all the dark pixels a fake text detector is shown, or null where there are none. */
function inkBounds(view: RawImage): { x0: number; y0: number; x1: number; y1: number } | null {
  let x0 = Infinity, x1 = -1, y0 = Infinity, y1 = -1;
  for (let y = 0; y < view.height; y++) for (let x = 0; x < view.width; x++) {
    if (view.data[(y * view.width + x) * view.channels]! < 128) {
      x0 = Math.min(x0, x); x1 = Math.max(x1, x + 1); y0 = Math.min(y0, y); y1 = Math.max(y1, y + 1);
    }
  }
  return x1 < 0 ? null : { x0, y0, x1, y1 };
}

/** A fake recogniser that reads a crop as wide as a whole number as `whole`, a narrower one as AB. */
const readsByWidth = (whole: string): PlateOcr['recognizeCrops'] => async (crops) => crops.map((crop) => {
  const text = crop.width / crop.height > 2.5 ? whole : 'AB';
  return { text, charConfidences: [...text].map(() => 0.95), alternatives: [...text].map((c) => [{ char: c, prob: 0.95 }]) };
});

/** A light 1280 x 720 photo with one small plate number, six dark characters 10 px wide every
 * 14 px (x 600..680, y 400..420). The photo's detector boxes only part of it (x 624..660); a
 * close-up boxes all the ink it shows, unless ink touches the view's left or right side (a
 * detector does not box text it sees cut off). The recogniser reads a crop as wide as the
 * whole number as ABC123, a narrower one as AB. */
function partlyBoxedPlateOcr() {
  const photo = numberPhoto(6, 400);
  let widestCloseUp = 0;
  const ocr: PlateOcr = {
    async detect(view) {
      if (view.height >= 300) {
        const [kx, ky] = [view.width / 1280, view.height / 720];
        return [{ quad: rect(624 * kx, 398 * ky, 660 * kx, 422 * ky), score: 0.9 }];
      }
      // How many of the six characters the close-up shows (whole or cut), along its middle row.
      const mid = Math.floor(view.height / 2);
      let shown = 0;
      for (let x = 0; x < view.width; x++) {
        const dark = (at: number) => view.data[(mid * view.width + at) * view.channels]! < 128;
        if (dark(x) && (x === 0 || !dark(x - 1))) shown++;
      }
      widestCloseUp = Math.max(widestCloseUp, shown);
      const ink = inkBounds(view);
      if (!ink || ink.x0 === 0 || ink.x1 === view.width) return [];
      return [{ quad: rect(ink.x0, ink.y0, ink.x1, ink.y1), score: 0.9 }];
    },
    recognizeCrops: readsByWidth('ABC123'),
  };
  return { ocr, photo, widestCloseUp: () => widestCloseUp };
}

/** A photo with a seven-character number 20 px tall in a plate detector's box `box`, and a text
 * detector that, like the real one, boxes no characters under 12 px tall in what it is shown
 * (`shown`: the characters' height in each picture it was shown). */
function plateInBox(box: Box) {
  const photo = numberPhoto(7, 380);
  const shown: number[] = [];
  const ocr: PlateOcr = {
    async detect(view) {
      const ink = inkBounds(view);
      if (!ink) return [];
      shown.push(ink.y1 - ink.y0);
      return ink.y1 - ink.y0 < 12 ? [] : [{ quad: rect(ink.x0, ink.y0, ink.x1, ink.y1), score: 0.9 }];
    },
    recognizeCrops: readsByWidth('ABC1234'),
  };
  const plateDetector: PlateDetector = { detect: async () => platesOnly([{ box, score: 0.9 }]) };
  return { pipeline: createPlatePipeline(ocr, { plateDetector }), photo, shown };
}

describe('a plate detector\'s box', () => {
  it('far larger than its plate is looked at again closer where the close-up at the box\'s size read no plate', async () => {
    const { pipeline, photo, shown } = plateInBox({ xmin: 560, ymin: 330, xmax: 720, ymax: 450 });
    const res = await pipeline.read(photo, options({ mode: 'fast' }));
    expect(res.plates.map((p) => p.plate)).toEqual(['abc1234']);
    expect(Math.min(...shown)).toBeLessThan(12);
  });

  it('that fits its plate is read from one close-up', async () => {
    const { pipeline, photo, shown } = plateInBox({ xmin: 590, ymin: 372, xmax: 705, ymax: 408 });
    const res = await pipeline.read(photo, options({ mode: 'fast' }));
    expect(res.plates.map((p) => p.plate)).toEqual(['abc1234']);
    expect(shown).toHaveLength(1);
  });
});

describe('a small plate the coarse pass boxed in part', () => {
  it('fast mode, which has no finer pass, finds the whole number in a close-up', async () => {
    const { ocr, photo, widestCloseUp } = partlyBoxedPlateOcr();
    const res = await createPlatePipeline(ocr).read(photo, options({ mode: 'fast' }));
    expect(res.plates.map((p) => p.plate)).toEqual(['abc123']);
    expect(widestCloseUp()).toBe(6);
  });

  it('regular mode shows no close-up the whole line: the box widened to the ink beside it reads it', async () => {
    const { ocr, photo, widestCloseUp } = partlyBoxedPlateOcr();
    const res = await createPlatePipeline(ocr).read(photo, options());
    expect(res.plates.map((p) => p.plate)).toEqual(['abc123']);
    expect(widestCloseUp()).toBeLessThan(6);
  });
});

describe('the shortest plate', () => {
  // The fake line is 50 detector pixels tall: a quarter of a 320 x 100 crop (shown to the
  // detector at twice its size), a few percent of a 1280 x 720 photo.
  it.each([
    { name: 'a three-character number that fills a plate crop is a plate', image: blank(320, 100), plates: ['248'] },
    { name: 'a three-character line in a photo of a scene is not', image: blank(1280, 720), plates: [] },
  ])('$name', async ({ image, plates }) => {
    const { ocr } = fakeOcr('248', 0.97);
    for (const mode of ['normal', 'fast'] as const) {
      const res = await createPlatePipeline(ocr).read(image, options({ mode }));
      expect(res.plates.map((p) => p.plate)).toEqual(plates);
    }
  });

  it('two characters stay too short even on a crop', async () => {
    const { ocr } = fakeOcr('48', 0.97);
    const res = await createPlatePipeline(ocr).read(blank(320, 100), options());
    expect(res.plates).toEqual([]);
  });
});

describe('O/0 and I/1 twins', () => {
  const plate = (p: string, score: number, code = 'us') => ({ plate: p, score, region: { code, score }, matched: true, weakest: score });

  it('tie when they differ only by O/0 or I/1, score alike and fit the formats of different regions', () => {
    // In a wide font, Czech 1AB 2345 against Brazilian ABC 1234.
    expect(twinTie(plate('0LB4809', 0.995), plate('OLB4809', 0.99), true)).toBe(true);
    // In a narrow one both are US numbers: the grammar's choice stands.
    expect(twinTie(plate('0LB4809', 0.995), plate('OLB4809', 0.99), false)).toBe(false);
    expect(twinTie(plate('0LB4809', 0.995), plate('OLB4809', 0.9), true)).toBe(false);
    expect(twinTie(plate('0LB4809', 0.995), plate('0LB4808', 0.995), true)).toBe(false);
    expect(twinTie(plate('0LB4809', 0.995), plate('0LB4809', 0.995), true)).toBe(false);
  });

  it('are settled by the referee, at the top\'s score; without one the ranking stands', () => {
    const ranked = [plate('0LB4809', 0.995, 'cz'), plate('OLB4809', 0.99, 'br'), plate('0LB48O9', 0.8)];
    expect(breakTwinTies(ranked, undefined, true)).toBe(ranked);
    const settled = breakTwinTies(ranked, [plate('OLB4809', 0.97, 'br')], true);
    expect(settled.map((p) => [p.plate, p.score, p.region.code])).toEqual([['OLB4809', 0.995, 'br'], ['0LB4809', 0.995, 'cz'], ['0LB48O9', 0.8, 'us']]);
    expect(breakTwinTies(ranked, [plate('0LB4809', 0.97, 'cz')], true)).toBe(ranked);
    expect(breakTwinTies(ranked, [plate('OLB4809', 0.97, 'br')], false)).toBe(ranked);
  });
});

describe('bestOfViews', () => {
  const scored = (plate: string, score: number) => ({ plate, score, matched: true, weakest: score, region: { code: 'us', score } });

  it('keeps each plate once, at its best score, best first', () => {
    const merged = bestOfViews([[scored('ABC123', 0.7), scored('A8C123', 0.5)], [scored('A8C123', 0.9)]]);
    expect(merged.map((s) => [s.plate, s.score])).toEqual([['A8C123', 0.9], ['ABC123', 0.7]]);
  });
});

describe('plate crops: the finer pass looks at the own pixels', () => {
  /** Widths of the pictures the detector is shown while a width x height image is read. */
  const detectorWidths = async (width: number, height: number) => {
    const { ocr } = fakeOcr('ABC1234', 0.72);
    const widths: number[] = [];
    const detect = ocr.detect.bind(ocr);
    ocr.detect = async (image, opts) => { widths.push(image.width); return detect(image, opts); };
    await createPlatePipeline(ocr).read(blank(width, height), options());
    return widths;
  };

  it('shows the detector a crop at its own size when the finer pass would repeat the coarse picture', async () => {
    expect(await detectorWidths(320, 160)).toEqual([640, 320]);
  });

  it('keeps enlarging a photo whose passes differ anyway', async () => {
    expect(await detectorWidths(400, 200)).toEqual([640, 800]);
  });
});

describe('completions', () => {
  const box = (xmin: number, ymin: number, xmax: number, ymax: number) => ({ xmin, ymin, xmax, ymax });
  const number = { plate: 'GZG34', textBox: box(10, 35, 273, 133), lineHeight: 98 };
  const slogan = { plate: 'ALOHASTATE', textBox: box(80, 134, 236, 153), lineHeight: 19 };

  it('takes the same line read with more characters', () => {
    const whole = { plate: 'GZG347', textBox: box(8, 33, 305, 135), lineHeight: 100 };
    expect(completions([whole], [number, slogan])).toEqual([whole]);
  });

  it('leaves a line the earlier pass read whole to that reading', () => {
    const again = { plate: '6ZG34', textBox: box(9, 34, 275, 134), lineHeight: 99 };
    expect(completions([again], [number])).toEqual([]);
  });

  it('does not let a longer reading of other text (a stacked prefix box) override the number', () => {
    const prefix = { plate: 'MAYBR', textBox: box(4, 2, 258, 106), lineHeight: 60 };
    expect(completions([prefix], [{ plate: '2515', textBox: box(62, 28, 313, 134), lineHeight: 105 }])).toEqual([]);
  });

  it('takes a large line where the earlier pass read only small print', () => {
    const big = { plate: 'GR8BUNZ', textBox: box(1, 43, 297, 180), lineHeight: 119 };
    expect(completions([big], [{ plate: 'LARSO', textBox: box(7, 152, 155, 186), lineHeight: 28 }])).toEqual([big]);
  });
});

describe('readings that fit no plate format', () => {
  it('are no plate in a photo of a scene: a four-character word on a sign', async () => {
    const { ocr } = fakeOcr('EXIT', 0.99);
    const res = await createPlatePipeline(ocr).read(blank(1280, 720), options());
    expect(res.plates).toEqual([]);
  });

  it('stay on a plate crop, where a short number fills the picture', async () => {
    // fakeOcr's line is 50 px tall: on a 160 px tall crop it fills more than a quarter.
    const { ocr } = fakeOcr('7684', 0.99);
    const res = await createPlatePipeline(ocr).read(blank(320, 160), options());
    expect(res.plates.map((p) => p.plate)).toEqual(['7684']);
  });

  it('stay in redaction mode, which boxes everything plate-like', async () => {
    const { ocr } = fakeOcr('EXIT', 0.99);
    const res = await createPlatePipeline(ocr).read(blank(1280, 720), options({ mode: 'redaction' }));
    expect(res.plates.map((p) => p.plate)).toEqual(['exit']);
  });

  it('stay when the caller\'s text_formats match them', async () => {
    const { ocr } = fakeOcr('EXIT', 0.99);
    const res = await createPlatePipeline(ocr).read(blank(1280, 720), options({ textFormats: ['^[A-Z]{4}$'] }));
    expect(res.plates.map((p) => p.plate)).toEqual(['exit']);
  });
});

describe('plate readers and the second opinion', () => {
  it('reads the candidate lines with the given reader, not the OCR engine', async () => {
    const engine = fakeOcr('XXXXXXX', 0.99);
    const reader = fakeOcr('7ABC123', 0.99);
    const res = await createPlatePipeline(engine.ocr, { reader: reader.ocr }).read(blank(1280, 720), options({ mode: 'fast' }));
    expect(res.plates.map((p) => p.plate)).toEqual(['7abc123']);
    expect(engine.reads).toEqual([]);
  });

  it('asks the second opinion about lines the reader left unsure, in regular mode, and keeps the better reading', async () => {
    const engine = fakeOcr('7ABC123', 0.99);
    // The reader saw the third character barely: not a settled plate.
    const reader = fakeOcr('7AEC123', 0.99, 2, 0.4);
    const res = await createPlatePipeline(engine.ocr, { reader: reader.ocr, secondOpinion: engine.ocr }).read(blank(1280, 720), options());
    expect(res.plates[0]?.plate).toBe('7abc123');
    expect(engine.reads.length).toBeGreaterThan(0);
    // It reads the plate lines padded to fewer columns than a plate crop is (see SECOND_OPINION_MIN_WIDTH).
    expect(new Set(engine.minWidths)).toEqual(new Set([SECOND_OPINION_MIN_WIDTH]));
    const crop = fakeOcr('7ABC123', 0.99);
    await createPlatePipeline(crop.ocr, { reader: reader.ocr, cropReader: crop.ocr, secondOpinion: crop.ocr }).read(blank(320, 160), options());
    expect(new Set(crop.minWidths)).toEqual(new Set([undefined]));
  });

  it('reads an unsure line once for the second opinion, as photographed: the other looks are the reader\'s', async () => {
    // Both unsure of one character on a coloured photo: the reader also reads its brightest
    // channel, and the second opinion would have too.
    const engine = fakeOcr('7ABC123', 0.99, 2, 0.5);
    const reader = fakeOcr('7AEC123', 0.99, 2, 0.4);
    await createPlatePipeline(engine.ocr, { reader: reader.ocr, secondOpinion: engine.ocr }).read(blank(1280, 720), options());
    expect(reader.reads.reduce((a, b) => a + b, 0)).toBeGreaterThan(1);
    expect(engine.reads.reduce((a, b) => a + b, 0)).toBe(1);
  });

  it.each(['normal', 'fast'] as const)('%s mode: the second opinion chooses between O and 0 where the reader cannot tell them apart', async (mode) => {
    const engine = fakeOcr('OLB4809', 0.97);
    // A reader that folds O into 0 (Vigil's trained one) gives both at one probability.
    const base = fakeOcr('0LB4809', 0.99);
    const reader: CropRecognizer = {
      recognizeCrops: async (crops, o) => (await base.ocr.recognizeCrops(crops, o)).map((d) => withFoldedTwins(d, PLATE_CHARSET)),
    };
    const res = await createPlatePipeline(engine.ocr, { reader, secondOpinion: engine.ocr }).read(blank(1280, 720), options({ mode }));
    expect(res.plates[0]?.plate).toBe('olb4809');
    expect(res.plates[0]?.region.code).toBe('br');
    expect(engine.reads.length).toBeGreaterThan(0);
  });

  it('does not ask about a line the reader settled, nor in fast mode about one without an O/0 tie', async () => {
    const engine = fakeOcr('XXXXXXX', 0.99);
    const reader = fakeOcr('7ABC123', 0.99);
    await createPlatePipeline(engine.ocr, { reader: reader.ocr, secondOpinion: engine.ocr }).read(blank(1280, 720), options());
    const unsure = fakeOcr('7AEC123', 0.99, 2, 0.4);
    await createPlatePipeline(engine.ocr, { reader: unsure.ocr, secondOpinion: engine.ocr }).read(blank(1280, 720), options({ mode: 'fast' }));
    expect(engine.reads).toEqual([]);
  });
});
