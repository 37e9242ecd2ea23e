import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { type Quad, uprightQuad } from './geometry.js';
import { cutLines } from './line-layouts.js';

const quad = (...p: Array<[number, number]>): Quad => p.map(([x, y]) => ({ x, y })) as Quad;

/** A tilted column of a trailer's number as the text detector's box ordering gives it: it
 * starts at the bottom-left corner and runs its first edge up the long side. */
const steepColumn = quad([84, 628], [135, 70], [183, 74], [132, 632]);

describe('uprightQuad', () => {
  it('starts a steep, thin box at its top-left corner, its top edge first', () => {
    expect(uprightQuad(steepColumn)).toEqual(quad([135, 70], [183, 74], [132, 632], [84, 628]));
  });

  it('leaves a box already ordered from its top-left corner as it is, tilted or not', () => {
    const level = quad([10, 10], [110, 10], [110, 40], [10, 40]);
    const tilted = quad([10, 40], [96, -10], [111, 16], [25, 66]);
    expect(uprightQuad(level)).toEqual(level);
    expect(uprightQuad(tilted)).toEqual(tilted);
  });
});

describe('cutLines', () => {
  const image: RawImage = { data: Buffer.alloc(300 * 700 * 3, 200), width: 300, height: 700, channels: 3 };

  it('cuts a steep column of characters as a tall crop, to be read turned or as a stack', () => {
    const [line] = cutLines(image, [steepColumn], true);
    expect(line!.orientation).toBe('vertical');
    expect(line!.crop.height).toBeGreaterThan(5 * line!.crop.width);
  });

  it('without vertical reading, cuts boxes as the detector ordered them', () => {
    const [line] = cutLines(image, [steepColumn], false);
    expect(line!.orientation).toBe('horizontal');
    expect(line!.crop.width).toBeGreaterThan(5 * line!.crop.height);
  });
});
