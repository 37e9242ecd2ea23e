import { describe, expect, it } from 'vitest';
import { MODES } from './plate-modes.js';
import { type CharOption, scoreReading } from './plate-scoring.js';
import { createLineJudge } from './reading-choice.js';

const judge = createLineJudge((chars) => scoreReading(chars, { regions: [], strictRegion: false, textFormats: [] }), MODES.normal);

/** One look at a line: each character at `prob`, the one at `doubtfulAt` at `doubtful`. */
const look = (text: string, prob = 0.99, doubtfulAt = -1, doubtful = prob): CharOption[][] =>
  [...text].map((char, i) => [{ char, prob: i === doubtfulAt ? doubtful : prob }]);

describe('which lines the second opinion reads', () => {
  const settledPlate = [look('7ABC123')];
  const sign = [look('WWWWWWWWWW', 0.6)];
  const unsurePlate = [look('7AEC123', 0.99, 2, 0.4)];

  it('reads an unsure plate-like line, whatever else the photo holds', () => {
    expect(judge.settled(settledPlate[0]!)).toBe(true);
    expect(judge.worthSecondOpinion(unsurePlate, [settledPlate])).toBe(true);
  });

  it('reads a line that fits no format while no line of the photo is a settled plate', () => {
    expect(judge.worthSecondOpinion(sign, [])).toBe(true);
    expect(judge.worthSecondOpinion(sign, [unsurePlate])).toBe(true);
  });

  it('does not read a line that fits no format beside a settled plate', () => {
    expect(judge.worthSecondOpinion(sign, [settledPlate])).toBe(false);
  });
});
