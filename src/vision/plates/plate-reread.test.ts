import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { type CropRecognizer, cutEnds, cutLine, rereadCandidates, wantsWiderLook, WIDER_LOOK_STRETCH, widenedLooks } from './plate-reread.js';
import { widenQuad } from '../image/quad.js';
import type { CharOption } from './plate-scoring.js';
import { referenceScale } from './photo-scale.js';
import type { Quad } from './plate.types.js';

const rect = (x: number, y: number, w: number, h: number): Quad => [
  { x, y }, { x: x + w, y }, { x: x + w, y: y + h }, { x, y: y + h },
];

/** A light cream plate with dark rectangles for glyphs (`grey`: a grey plate, as an infrared
 * camera shows it). */
function picture(width: number, height: number, glyphs: ReadonlyArray<[number, number, number, number]>, grey = false): RawImage {
  const cream = grey ? [230, 230, 230] : [235, 228, 200];
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < data.length; i += 3) data.set(cream, i);
  for (const [x, y, w, h] of glyphs) {
    for (let r = y; r < y + h; r++) data.fill(20, (r * width + x) * 3, (r * width + x + w) * 3);
  }
  return { data, width, height, channels: 3 };
}

/** Records the width of every crop it is asked to read. */
function recorder() {
  const widths: number[] = [];
  const ocr: CropRecognizer = {
    async recognizeCrops(crops) {
      widths.push(...crops.map((c) => c.width));
      return crops.map(() => ({ text: 'A', charConfidences: [0.9], alternatives: [[]] }));
    },
  };
  return { ocr, widths };
}

describe('rereadCandidates', () => {
  it('gives close-up lines a wider margin at their ends', async () => {
    const image = picture(400, 200, []);
    const line = rect(100, 50, 200, 60);
    const plain = recorder();
    await rereadCandidates(image, [{ lines: [line], dscore: 0.9 }], plain.ocr);
    const close = recorder();
    await rereadCandidates(image, [{ lines: [line], dscore: 0.9, closeUp: true }], close.ocr);
    expect(close.widths[0]).toBeGreaterThan(plain.widths[0]!);
    // Fast mode keeps the usual margin on close-ups (the wider one tips an unsure O to D).
    const narrow = recorder();
    await rereadCandidates(image, [{ lines: [line], dscore: 0.9, closeUp: true }], narrow.ocr, { padding: { x: 0.1, y: 0.05, closeUpX: 0.1 } });
    expect(narrow.widths[0]).toBe(plain.widths[0]);
  });

  it('cuts a line whose box is far taller than its characters to their rows', async () => {
    const glyphs: Array<[number, number, number, number]> = [[100, 60, 30, 70], [140, 60, 30, 70], [180, 60, 30, 70], [220, 60, 30, 70]];
    const heights: number[] = [];
    const ocr: CropRecognizer = {
      async recognizeCrops(crops) {
        heights.push(...crops.map((c) => c.height));
        return crops.map(() => ({ text: 'A', charConfidences: [0.9], alternatives: [[]] }));
      },
    };
    // The box runs 40 px above and below 70 px tall characters: the crop keeps a margin of 0.15 of them.
    await rereadCandidates(picture(340, 200, glyphs), [{ lines: [rect(80, 20, 180, 150)], dscore: 0.9 }], ocr);
    expect(heights[0]).toBeLessThan(100);
  });

  it.each([
    ['the number before reading it', false],
    ['a close-up line too', true],
  ])('cuts a stacked type code off %s', async (_, closeUp) => {
    const number: Array<[number, number, number, number]> = [[100, 20, 30, 60], [140, 20, 30, 60], [180, 20, 30, 60], [220, 20, 30, 60]];
    const typed = picture(300, 100, [[60, 20, 20, 25], [60, 55, 20, 25], ...number]);
    const bare = picture(300, 100, number);
    const line = rect(50, 10, 210, 80);
    const a = recorder();
    await rereadCandidates(typed, [{ lines: [line], dscore: 0.9, closeUp }], a.ocr);
    const b = recorder();
    await rereadCandidates(bare, [{ lines: [line], dscore: 0.9, closeUp }], b.ocr);
    expect(a.widths[0]).toBeLessThan(b.widths[0]!);
  });

  it('does not widen a line again at an end where small print was cut off', async () => {
    // 3127K with a stacked DP after it: the cut leaves K at the crop's right side.
    const number: Array<[number, number, number, number]> = [[60, 20, 30, 60], [100, 20, 30, 60], [140, 20, 30, 60], [180, 20, 30, 60]];
    const image = picture(300, 100, [...number, [222, 20, 20, 25], [222, 55, 20, 25]]);
    const ocr: CropRecognizer = {
      async recognizeCrops(crops) {
        return crops.map((c) => ({ text: 'AB', charConfidences: [0.9, 0.9], alternatives: [[], []], charSpans: [{ x0: 16, x1: 24 }, { x0: c.width - 8, x1: c.width }] }));
      },
    };
    const [reading] = await rereadCandidates(image, [{ lines: [rect(50, 10, 200, 80)], dscore: 0.9 }], ocr);
    expect(reading!.views).toHaveLength(2);
  });

  /** Reads a narrow crop as `narrow` and a wider one as `wide`, the first character at the crop's
   * left edge (the box cut through it); records the crops' widths. */
  function edgeReader(narrowWidth: number, narrow: string, wide: string) {
    const widths: number[] = [];
    const ocr: CropRecognizer = {
      async recognizeCrops(crops) {
        widths.push(...crops.map((c) => c.width));
        return crops.map((c) => {
          const text = c.width > narrowWidth ? wide : narrow;
          const spans = [...text].map((_, n) => (n === 0 ? { x0: 0, x1: 8 } : { x0: 24 * n, x1: 24 * n + 8 }));
          return { text, charConfidences: [...text].map((_, n) => (n === 0 ? 0.4 : 0.99)), alternatives: [...text].map(() => []), charSpans: spans };
        });
      },
    };
    return { ocr, widths };
  }

  it('reads a line again, widened on that side, when its first character sits at the crop edge', async () => {
    const image = picture(400, 200, []);
    const line = rect(100, 50, 200, 60);
    const first = edgeReader(Infinity, 'NXY', 'NXY');
    await rereadCandidates(image, [{ lines: [line], dscore: 0.9 }], first.ocr);
    const narrowWidth = first.widths[0]!;
    // The widened line shows a W the narrow one hid: the grammars choose between the looks.
    const { ocr, widths } = edgeReader(narrowWidth, 'NXY', 'WNXY');
    const [reading] = await rereadCandidates(image, [{ lines: [line], dscore: 0.9 }], ocr);
    // As photographed and brightest channel, then widened as photographed.
    expect(widths).toHaveLength(3);
    expect(widths[2]).toBeGreaterThan(narrowWidth);
    expect(reading!.views.map((v) => v.map((c) => c[0]!.char).join(''))).toEqual(['NXY', 'NXY', 'WNXY']);
  });

  it('reads each line once, as photographed, when only the first look is asked for', async () => {
    const image = picture(400, 200, []);
    const line = rect(100, 50, 200, 60);
    const first = edgeReader(Infinity, 'NXY', 'NXY');
    await rereadCandidates(image, [{ lines: [line], dscore: 0.9 }], first.ocr);
    // The same edge-touching line that otherwise gets its brightest channel and a widened cut.
    const { ocr, widths } = edgeReader(first.widths[0]!, 'NXY', 'WNXY');
    const [reading] = await rereadCandidates(image, [{ lines: [line], dscore: 0.9 }], ocr, { firstLookOnly: true });
    expect(widths).toEqual([first.widths[0]]);
    expect(reading!.views.map((v) => v.map((c) => c[0]!.char).join(''))).toEqual(['NXY']);
  });

  it('reads a line cut through its end character from the widened looks alone when they read as many characters', async () => {
    const image = picture(400, 200, []);
    const line = rect(100, 50, 200, 60);
    const first = edgeReader(Infinity, 'NXY', 'NXY');
    await rereadCandidates(image, [{ lines: [line], dscore: 0.9 }], first.ocr);
    // The cut W read as N; widened, the same three characters with the W whole.
    const { ocr } = edgeReader(first.widths[0]!, 'NXY', 'WXY');
    const [reading] = await rereadCandidates(image, [{ lines: [line], dscore: 0.9 }], ocr);
    expect(reading!.views.map((v) => v.map((c) => c[0]!.char).join(''))).toEqual(['WXY', 'WXY']);
  });

  it('leaves out a character read over a separator dot between the groups', async () => {
    // ABC • DEF: characters 24 x 40 px, a 10 px dot on their middle at x 180.
    const glyphs: Array<[number, number, number, number]> = [50, 90, 130, 220, 260, 300].map((x) => [x, 30, 24, 40]);
    const image = picture(400, 120, [...glyphs, [180, 45, 10, 10]]);
    // The crop starts 6 px (a tenth of the line's height) left of the line, at x 34.
    const at = (x: number) => ({ x0: x - 34 + 4, x1: x - 34 + 12 });
    const ocr: CropRecognizer = {
      async recognizeCrops(crops) {
        return crops.map(() => ({ text: 'ABCODEF', charConfidences: Array(7).fill(0.9), alternatives: Array.from({ length: 7 }, () => []),
          charSpans: [at(50), at(90), at(130), at(180), at(220), at(260), at(300)] }));
      },
    };
    const [reading] = await rereadCandidates(image, [{ lines: [rect(40, 20, 290, 60)], dscore: 0.9 }], ocr);
    expect(reading!.views.map((v) => v.map((c) => c[0]!.char).join(''))).toEqual(['ABCDEF', 'ABCDEF']);
  });

  it('reads a grey line once: it is its own brightest channel', async () => {
    const glyphs: Array<[number, number, number, number]> = [[110, 60, 30, 40], [150, 60, 30, 40], [190, 60, 30, 40], [230, 60, 30, 40]];
    const line = rect(100, 50, 200, 60);
    const grey = recorder();
    const [greyReading] = await rereadCandidates(picture(400, 200, glyphs, true), [{ lines: [line], dscore: 0.9 }], grey.ocr);
    expect(grey.widths).toHaveLength(1);
    expect(greyReading!.views).toHaveLength(1);
    // The same line on a cream plate gets its brightest-channel look.
    const cream = recorder();
    const [creamReading] = await rereadCandidates(picture(400, 200, glyphs), [{ lines: [line], dscore: 0.9 }], cream.ocr);
    expect(cream.widths).toHaveLength(2);
    expect(creamReading!.views).toHaveLength(2);
  });

  it('does not read a line again when its characters clear the crop edges', async () => {
    const image = picture(400, 200, []);
    const ocr: CropRecognizer = {
      async recognizeCrops(crops) {
        return crops.map((c) => ({ text: 'AB', charConfidences: [0.9, 0.9], alternatives: [[], []], charSpans: [{ x0: 16, x1: 24 }, { x0: c.width - 24, x1: c.width - 16 }] }));
      },
    };
    const [reading] = await rereadCandidates(image, [{ lines: [rect(100, 50, 200, 60)], dscore: 0.9 }], ocr);
    expect(reading!.views).toHaveLength(2);
  });
});

describe('wider look at small doubtful lines', () => {
  /** Reads every crop as `text` with the given confidences; records the crops' sizes. */
  function reader(text: string, probs: number[]) {
    const sizes: Array<{ width: number; height: number }> = [];
    const ocr: CropRecognizer = {
      async recognizeCrops(crops) {
        sizes.push(...crops.map((c) => ({ width: c.width, height: c.height })));
        return crops.map(() => ({ text, charConfidences: probs, alternatives: probs.map(() => []) }));
      },
    };
    return { ocr, sizes };
  }
  const image = picture(400, 200, []);
  // A plate number seen 24 px tall: enlarged to the read height, seven characters in condensed type.
  const small = rect(100, 80, 90, 24);

  it('reads a small line with a doubtful character once more, cut wider than the first look', async () => {
    const { ocr, sizes } = reader('4FEU387', [0.9, 0.6, 0.55, 0.9, 0.99, 0.99, 0.99]);
    const [reading] = await rereadCandidates(image, [{ lines: [small], dscore: 0.9 }], ocr);
    // As photographed, brightest channel, then the wider cut.
    expect(reading!.views).toHaveLength(3);
    const first = sizes[0]!;
    const wider = sizes[2]!;
    expect(wider.height).toBe(first.height);
    expect(wider.width / first.width).toBeCloseTo(WIDER_LOOK_STRETCH, 1);
  });

  it('asks for the brightest channel and the wider cut at once, and keeps their order', async () => {
    let inFlight = 0;
    let most = 0;
    const probs = [0.9, 0.6, 0.55, 0.9, 0.99, 0.99, 0.99];
    const widths: number[] = [];
    const ocr: CropRecognizer = {
      async recognizeCrops(crops) {
        most = Math.max(most, ++inFlight);
        const first = widths.length === 0;
        const call = widths.push(crops[0]!.width);
        // The wider cut answers first: its look must still come last.
        await new Promise((r) => setTimeout(r, first ? 0 : 40 / call));
        inFlight--;
        return crops.map(() => ({ text: `${call + 1}FEU387`, charConfidences: probs, alternatives: probs.map(() => []) }));
      },
    };
    const [reading] = await rereadCandidates(image, [{ lines: [small], dscore: 0.9 }], ocr);
    expect(most).toBe(2);
    expect(widths[2]! / widths[0]!).toBeCloseTo(WIDER_LOOK_STRETCH, 1);
    expect(reading!.views.map((v) => v[0]![0]!.char)).toEqual(['2', '3', '4']);
  });

  it('does not read a small line again when every character is sure', async () => {
    const { ocr } = reader('4EEU387', [0.9, 0.95, 0.9, 0.9, 0.99, 0.99, 0.99]);
    const [reading] = await rereadCandidates(image, [{ lines: [small], dscore: 0.9 }], ocr);
    expect(reading!.views).toHaveLength(2);
  });

  const sure = (text: string, doubtful = -1): CharOption[][] => [...text].map((char, i) => [{ char, prob: i === doubtful ? 0.5 : 0.95 }]);
  const line = (height: number, lines = 1) => ({ lines: Array.from({ length: lines }, () => rect(0, 0, 4 * height, height)), dscore: 0.9 });
  it.each([
    ['small line, condensed type, a doubtful character', line(24), sure('4FEU387', 2), { width: 170, height: 48 }, true],
    ['every character sure', line(24), sure('4FEU387'), { width: 170, height: 48 }, false],
    ['a line seen at the read height or taller', line(60), sure('4FEU387', 2), { width: 170, height: 48 }, false],
    ['wide type (about 0.75 crop heights per character)', line(24), sure('OUH9191', 0), { width: 250, height: 48 }, false],
    ['shorter than a plate number', line(24), sure('AB1', 1), { width: 70, height: 48 }, false],
    ['two stacked lines', line(24, 2), sure('4FEU387', 2), { width: 170, height: 48 }, false],
  ])('%s', (_name, candidate, firstLook, crop, expected) => {
    expect(wantsWiderLook(candidate, firstLook, crop)).toBe(expected);
  });

  it('judges a line of a photo larger than the reference size as if the photo were that size', () => {
    // One line in a 1280 x 720 photo and the same photo upscaled to 1920 x 1080: the recogniser
    // is shown both at the read height, so both are small.
    const doubtful = sure('4FEU387', 2);
    const crop = { width: 170, height: 48 };
    expect(wantsWiderLook(line(40), doubtful, crop, referenceScale({ width: 1280, height: 720 }))).toBe(true);
    expect(wantsWiderLook(line(60), doubtful, crop, referenceScale({ width: 1920, height: 1080 }))).toBe(true);
    // A photo under the reference size keeps its own pixels.
    expect(referenceScale({ width: 720, height: 480 })).toBe(1);
  });
});

describe('cutLine', () => {
  it('enlarges a small line to the read height and stretches only its width', () => {
    const image = picture(400, 200, []);
    const plain = cutLine(image, rect(100, 80, 90, 24));
    const wider = cutLine(image, rect(100, 80, 90, 24), 1.25);
    expect(plain).toMatchObject({ width: 180, height: 48 });
    expect(wider).toMatchObject({ width: 225, height: 48 });
  });
});

describe('cutEnds', () => {
  it('tells which ends of a read line touch the crop sides', () => {
    expect(cutEnds([{ x0: 0, x1: 8 }, { x0: 40, x1: 48 }], 100, 48)).toEqual({ left: true, right: false });
    expect(cutEnds([{ x0: 16, x1: 24 }, { x0: 88, x1: 100 }], 100, 48)).toEqual({ left: false, right: true });
    expect(cutEnds(undefined, 100, 48)).toEqual({ left: false, right: false });
  });
});

describe('widenQuad', () => {
  it('moves only the asked end, along the line, by line heights', () => {
    const q = widenQuad(rect(100, 50, 200, 40), 0.5, 0);
    expect(q).toEqual(rect(80, 50, 220, 40));
  });
});

describe('widenedLooks', () => {
  const look = (text: string): CharOption[][] => [...text].map((char) => [{ char, prob: 0.9 }]);
  const texts = (looks: CharOption[][][]) => looks.map((l) => l.map((c) => c[0]!.char).join(''));

  it('puts the widened looks in the narrow ones\' place when they read as many characters', () => {
    expect(texts(widenedLooks([look('MLOC29'), look('MLOC29')], [look('MLOC2S'), look('MLOC2S')]))).toEqual(['MLOC2S', 'MLOC2S']);
  });

  it('keeps a further narrow look the widened line did not get', () => {
    expect(texts(widenedLooks([look('ABC9'), look('ABC9')], [look('ABCS')]))).toEqual(['ABCS', 'ABC9']);
  });

  it('adds the widened line\'s first look when it reads a different number of characters', () => {
    expect(texts(widenedLooks([look('TC249'), look('TC249')], [look('WTC249'), look('WTC249')]))).toEqual(['TC249', 'TC249', 'WTC249']);
    expect(texts(widenedLooks([look('ABC')], []))).toEqual(['ABC']);
  });
});
