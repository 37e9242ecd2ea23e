import { describe, expect, it } from 'vitest';
import { isScaleNumber, isScaleRun, mergeDigitRuns, rankOdometerLines, type RowPiece, splitPiece, trailingScaleLabels, withScaleLabelsApart } from './odometer-rows.js';

const piece = (text: string, x: number, y: number, h: number, w = text.length * h * 0.6, confidence = 0.95): RowPiece => ({ text, confidence, x, y, w, h });

describe('gauge scale numbers', () => {
  it.each([['20', true], ['140', true], ['902', false], ['105', false], ['0', false], ['1000', false]])('isScaleNumber(%j) → %j', (d, r) => expect(isScaleNumber(d)).toBe(r));
  it.each([['4050', true], ['6080', true], ['100120', true], ['30405080', true], ['230860', false], ['017552', false], ['5040', false], ['120593', false]])('isScaleRun(%j) → %j', (d, r) => expect(isScaleRun(d)).toBe(r));
});

describe('rankOdometerLines', () => {
  it.each<[string, RowPiece[], string | undefined]>([
    ['the long number among scale labels', [piece('20', 100, 100, 30), piece('140', 600, 120, 30), piece('018704', 300, 400, 50), piece('70', 620, 410, 24)], '018704'],
    ['the odometer, not the trip meter beside its label', [piece('TRIP A', 200, 600, 22), piece('123.4', 300, 598, 28), piece('048213', 300, 480, 50)], '048213'],
    ['a trip meter printed as large as the odometer loses to the ODO line', [piece('TRIP', 100, 200, 30), piece('4521', 200, 200, 40), piece('ODO', 100, 300, 30), piece('12345', 200, 300, 40)], '12345'],
    ['a number with km beats one without at the same size', [piece('88821', 100, 100, 40), piece('118668', 400, 300, 40), piece('km', 400 + 6 * 24 + 10, 305, 20)], '118668'],
    ['clocks, temperatures and speeds are never odometers', [piece('12:45', 100, 100, 60), piece('21°C', 400, 100, 60), piece('120 km/h', 100, 300, 60)], undefined],
    ['merged scale labels are not a reading', [piece('4050', 300, 300, 40), piece('00094', 300, 400, 30)], '00094'],
  ])('%s', (_, pieces, want) => {
    expect(rankOdometerLines(pieces)[0]?.value).toBe(want);
  });
});

/** Spans around the given character centres, 8 px wide. */
const spansAt = (centres: number[]) => centres.map((c) => ({ x0: c - 4, x1: c + 4 }));

describe('dial labels boxed with the drum', () => {
  it.each<[string, number[] | undefined, number[]]>([
    // The window edge, the drum, a tenths wheel, then the dial's 70 in small print.
    ['100094870', [4, 21, 62, 104, 146, 187, 221, 254, 266], [7]],
    // 120 makes the row too long; the 70 before it is printed smaller than the drum.
    ['0072370120', [17, 38, 66, 87, 108, 136, 150, 199, 209, 227], [7, 5]],
    // ...without the characters' places only what makes the row too long goes.
    ['0072370120', undefined, [7]],
    // A 70 spaced like the drum's digits stays once the row is short enough.
    ['0072370120', [20, 40, 60, 80, 100, 120, 140, 199, 209, 227], [7]],
    ['01989070', undefined, []], // eight digits: left to cleanRowDigits
    ['123456789', undefined, []], // too long, but no scale label ends it
    ['1000948', undefined, []],
  ])('trailingScaleLabels(%j) start at %j', (text, centres, want) => {
    expect(trailingScaleLabels(text, centres && spansAt(centres))).toEqual(want);
  });

  it('splits a piece between characters, each part with its own confidences and places', () => {
    const p: RowPiece = { text: '0072370120', confidence: 0.9, charConfidences: [0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.6, 0.6, 0.6], charSpans: spansAt([317, 338, 366, 387, 408, 436, 450, 499, 509, 527]), x: 300, y: 50, w: 240, h: 40 };
    const [drum, label] = splitPiece(p, [7])!;
    expect(drum).toMatchObject({ text: '0072370', x: 300, w: 174.5, y: 50, h: 40 });
    expect(drum!.confidence).toBeCloseTo(0.9);
    expect(label).toMatchObject({ text: '120', x: 474.5, w: 65.5, charConfidences: [0.6, 0.6, 0.6] });
    expect(label!.charSpans).toHaveLength(3);
    expect(splitPiece(p, [7, 5])!.map((q) => q.text)).toEqual(['00723', '70', '120']);
    expect(splitPiece({ ...p, charSpans: undefined }, [7])).toBeUndefined();
  });

  it('a drum boxed with two dial labels (ten digits, no reading) ranks once they are apart', () => {
    const row: RowPiece = { text: '0072370120', confidence: 0.9, charSpans: spansAt([17, 38, 66, 87, 108, 136, 150, 199, 209, 227]), x: 0, y: 100, w: 248, h: 55 };
    const pieces = [piece('20', 10, 20, 26), row, piece('140', 200, 200, 33)];
    expect(rankOdometerLines(pieces)).toEqual([]);
    const apart = withScaleLabelsApart(pieces);
    expect(apart.map((p) => p.text)).toEqual(['20', '00723', '70', '120', '140']);
    expect(rankOdometerLines(apart)[0]?.value).toBe('00723');
  });
});

describe('mergeDigitRuns', () => {
  it.each<[string, RowPiece[], string[]]>([
    ['a drum split at a wide gap is one row', [piece('009', 195, 587, 38, 90), piece('39', 268, 593, 31, 60)], ['00939']],
    ['a scale label beside the drum stays apart', [piece('00659', 235, 528, 38, 208), piece('70', 444, 529, 20, 28)], ['00659', '70']],
    ['even when as tall as the digits', [piece('189038', 343, 558, 50, 158), piece('120', 510, 579, 39, 64)], ['189038', '120']],
    ['two scale labels do not make a number', [piece('60', 283, 304, 43, 72), piece('180', 335, 301, 37, 121)], ['60', '180']],
    ['digits on another row stay apart', [piece('0766', 149, 548, 62, 192), piece('054137', 114, 313, 62, 312)], ['054137', '0766']],
    ['digits far along the row stay apart', [piece('12345', 100, 100, 40, 120), piece('678', 400, 100, 40, 72)], ['12345', '678']],
    ['words are not joined', [piece('ODO', 100, 100, 40, 70), piece('12345', 175, 100, 40, 120)], ['ODO', '12345']],
  ])('%s', (_, pieces, want) => {
    expect(mergeDigitRuns(pieces).map((p) => p.text).sort()).toEqual([...want].sort());
  });
});
