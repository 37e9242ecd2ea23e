import { describe, expect, it } from 'vitest';
import type { DecodedText } from './ctc-decode.js';
import { fuseReadings, withDroppedCharacter } from './fused-readings.js';

const reading = (text: string, confidences: number[]): DecodedText => ({
  text,
  confidence: confidences.reduce((s, p) => s + p, 0) / confidences.length,
  charConfidences: confidences,
  alternatives: [...text].map((char, i) => [{ char, prob: confidences[i]! }]),
  charSpans: [...text].map((_, i) => ({ x0: 10 * i, x1: 10 * i + 8 })),
});

describe('fuseReadings', () => {
  it("takes each character from the reader surer of it, keeping the first reader's spans", () => {
    const ppocr = reading('7G43', [0.97, 0.48, 0.95, 0.96]);
    const ours = reading('7043', [0.99, 0.93, 0.9, 0.99]);
    const fused = fuseReadings(ppocr, ours);
    expect(fused.text).toBe('7043');
    expect(fused.charConfidences).toEqual([0.97, 0.93, 0.95, 0.96]);
    expect(fused.alternatives[1]).toEqual([{ char: '0', prob: 0.93 }, { char: 'G', prob: 0.48 }]);
    expect(fused.confidence).toBeCloseTo((0.97 + 0.93 + 0.95 + 0.96) / 4);
    expect(fused.charSpans).toEqual(ppocr.charSpans);
  });

  it("takes the other reader's whole reading where the first read no letter or digit", () => {
    // Second generator (2026-12-06): PP-OCR read an outlined 3101 as nothing, the identifier reader read it.
    const ours = reading('3101', [0.9, 0.8, 0.9, 0.85]);
    expect(fuseReadings(reading('', []), ours)).toEqual(ours);
    expect(fuseReadings(reading('#:', [0.6, 0.5]), ours)).toEqual(ours);
    // Neither read one: the first stands.
    const marks = reading('#', [0.6]);
    expect(fuseReadings(marks, reading('', []))).toBe(marks);
  });

  it('keeps a character the first reader is surer of, where neither saw the other reading', () => {
    const ppocr = reading('48540', [0.99, 0.9, 0.99, 0.99, 0.99]);
    expect(fuseReadings(ppocr, reading('43540', [0.99, 0.8, 0.99, 0.99, 0.99])).text).toBe('48540');
    expect(fuseReadings(ppocr, reading('43540', [0.99, 0.95, 0.99, 0.99, 0.99])).text).toBe('43540');
  });

  it('weighs what each reader also saw: the character both find likely wins over one reader\'s surer one', () => {
    // Second generator, tuning draw 118 (JHM36BMV7TN265400): PP-OCR read the last 0 as 9 at
    // 0.89 with 0 its next choice; the identifier reader read 0 at 0.87 and listed no 9.
    const withChoices = (d: DecodedText, at: number, choices: Array<{ char: string; prob: number }>): DecodedText =>
      ({ ...d, alternatives: d.alternatives.map((a, i) => (i === at ? choices : a)) });
    const ppocr = withChoices(reading('265409', [1, 0.99, 0.99, 1, 0.75, 0.894]), 5, [{ char: '9', prob: 0.894 }, { char: '0', prob: 0.078 }, { char: '6', prob: 0.016 }]);
    const ours = withChoices(reading('265400', [1, 1, 1, 1, 0.98, 0.866]), 5, [{ char: '0', prob: 0.866 }, { char: 'O', prob: 0.037 }, { char: '6', prob: 0.03 }]);
    const fused = fuseReadings(ppocr, ours);
    expect(fused.text).toBe('265400');
    expect(fused.charConfidences[5]).toBe(0.866);
    expect(fused.alternatives[5]!.map((c) => c.char)).toContain('9');
    // Where the identifier reader also saw a 9, nearly as likely as its 0, PP-OCR's 9 stands.
    const unsure = withChoices(ours, 5, [{ char: '0', prob: 0.866 }, { char: '9', prob: 0.1 }, { char: '6', prob: 0.03 }]);
    expect(fuseReadings(ppocr, unsure).text).toBe('265409');
  });

  it("keeps the other reader's character among the choices where the two disagree", () => {
    // A VIN's check digit or a fleet number's run of digits can then take it.
    const ppocr = reading('48540', [0.99, 0.9, 0.99, 0.99, 0.99]);
    const kept = fuseReadings(ppocr, reading('43540', [0.99, 0.8, 0.99, 0.99, 0.99]));
    expect(kept.alternatives[1]).toEqual([{ char: '8', prob: 0.9 }, { char: '3', prob: 0.8 }]);
    expect(kept.alternatives[0]).toEqual(ppocr.alternatives[0]);
    // Among the first reader's own choices nearly as likely as its reading, the other reader's
    // character is the one both see: it is taken, and the first reading kept among the choices.
    const own = { ...ppocr, alternatives: ppocr.alternatives.map((a, i) => (i === 1 ? [...a, { char: '3', prob: 0.85 }] : a)) };
    const taken = fuseReadings(own, reading('43540', [0.99, 0.8, 0.99, 0.99, 0.99]));
    expect(taken.text).toBe('43540');
    expect(taken.alternatives[1]).toEqual([{ char: '8', prob: 0.9 }, { char: '3', prob: 0.8 }]);
  });

  it('matches letters and digits only: spaces and punctuation stay as the first reader read them', () => {
    const ppocr = reading('CU-2054', [0.99, 0.99, 0.9, 0.4, 0.99, 0.99, 0.99]);
    const ours = reading('CUZ054', [0.99, 0.99, 0.9, 0.99, 0.99, 0.99]);
    expect(fuseReadings(ppocr, ours).text).toBe('CU-Z054');
  });

  it("counts the other reader's full-width digits and letters as the characters they are", () => {
    // PP-OCR's dictionary reads a stencilled 9 as ９ now and then: one character, a 9.
    const stacks = reading('FLX6923', [0.99, 0.99, 0.4, 0.99, 0.99, 0.99, 0.99]);
    const ppocr = reading('FLY6９2 3', [0.9, 0.9, 0.8, 0.9, 0.6, 0.9, 0.1, 0.9]);
    expect(fuseReadings(stacks, ppocr).text).toBe('FLY6923');
  });

  it('takes a letter or digit the other read where the first read a mark, on lines as long', () => {
    // A faint embossed 4 read as "!" by PP-OCR, as 4 by the identifier reader (2026-12-06).
    const ppocr = reading('68394!', [0.9, 0.9, 0.9, 0.9, 0.9, 0.2]);
    const ours = reading('683944', [0.95, 0.95, 0.95, 0.95, 0.95, 0.9]);
    expect(fuseReadings(ppocr, ours).text).toBe('683944');
    // The other way round no mark is taken for a character, however sure.
    expect(fuseReadings(ours, reading('68394!', [0.9, 0.9, 0.9, 0.9, 0.9, 0.99])).text).toBe('683944');
    // Spaces do not count: a space read where the other read none leaves the rest aligned.
    expect(fuseReadings(reading('KT 7.1', [0.9, 0.9, 1, 0.9, 0.1, 0.9]), reading('KT741', [0.9, 0.9, 0.9, 0.8, 0.9])).text).toBe('KT 741');
  });

  it('leaves the first reading as it is where the other read another number of characters, the other beside it', () => {
    const ppocr = reading('T220', [0.6, 0.99, 0.99, 0.99]);
    const other = reading('1T220', [0.99, 0.99, 0.99, 0.99, 0.99]);
    const fused = fuseReadings(ppocr, other);
    expect({ ...fused, otherReading: undefined }).toEqual({ ...ppocr, otherReading: undefined });
    expect(fused.otherReading).toEqual({ text: '1T220', confidence: other.confidence, charConfidences: other.charConfidences, alternatives: other.alternatives });
    expect(fuseReadings(ppocr, reading('', []))).toBe(ppocr);
  });
});

describe('withDroppedCharacter', () => {
  // Second generator, stacked trailer IDs (draws 113 and 119): the stack reader read the column
  // surely a character short; PP-OCR reading it laid out read that character.
  it('puts back a character the stack reader dropped inside the column, look-alikes lining up', () => {
    const stack = reading('Z999', [0.99, 1, 1, 1]);
    const fixed = withDroppedCharacter(stack, reading('29199', [0.8, 0.99, 0.95, 0.98, 0.99]));
    expect(fixed.text).toBe('Z9199');
    expect(fixed.charConfidences).toEqual([0.99, 1, 0.95, 1, 1]);
    expect(fixed.alternatives[2]).toEqual([{ char: '1', prob: 0.95 }]);
    expect(fixed.confidence).toBeCloseTo((0.99 + 1 + 0.95 + 1 + 1) / 5);
    // Marks in the laid-out reading are not characters.
    expect(withDroppedCharacter(reading('YBD270', [1, 1, 1, 1, 1, 1]), reading('YBD 2070.', [0.9, 0.9, 0.9, 0.5, 0.9, 0.53, 0.9, 0.9, 0.4])).text).toBe('YBD2070');
  });

  it('adds nothing at either end, beside a like character, unsurely, or where the rest disagrees', () => {
    const stack = reading('87386', [1, 1, 1, 1, 1]);
    expect(withDroppedCharacter(stack, reading('873861', [1, 1, 1, 1, 1, 0.99]))).toBe(stack);
    expect(withDroppedCharacter(stack, reading('187386', [0.99, 1, 1, 1, 1, 1]))).toBe(stack);
    // A thin character read twice laid out (97711 as 977111).
    const run = reading('97711', [1, 1, 1, 1, 1]);
    expect(withDroppedCharacter(run, reading('977111', [1, 1, 1, 0.99, 0.85, 0.75]))).toBe(run);
    expect(withDroppedCharacter(stack, reading('827386', [1, 0.4, 1, 1, 1, 1]))).toBe(stack);
    expect(withDroppedCharacter(stack, reading('827346', [1, 0.98, 1, 1, 1, 1]))).toBe(stack);
    expect(withDroppedCharacter(stack, reading('8273866', [1, 0.98, 1, 1, 1, 1, 1]))).toBe(stack);
    expect(withDroppedCharacter(stack, reading('827386', [1, 0.98, 1, 1, 1, 1])).text).toBe('827386');
  });
});
