import { describe, expect, it } from 'vitest';
import { lengthenQuad, type Quad, widenQuad } from './quad.js';

const round = (q: Quad) => q.map((p) => ({ x: Math.round(p.x * 1000) / 1000, y: Math.round(p.y * 1000) / 1000 }));

describe('lengthenQuad', () => {
  it('moves an upright box\'s top up and its bottom down', () => {
    const q: Quad = [{ x: 10, y: 100 }, { x: 50, y: 100 }, { x: 50, y: 400 }, { x: 10, y: 400 }];
    expect(round(lengthenQuad(q, 20, 30))).toEqual([{ x: 10, y: 80 }, { x: 50, y: 80 }, { x: 50, y: 430 }, { x: 10, y: 430 }]);
  });

  it('grows a slanted column along its slant, not straight down', () => {
    // Sides leaning 3 px right for every 4 down: 50 px along them is 30 across and 40 down.
    const q: Quad = [{ x: 0, y: 0 }, { x: 40, y: 0 }, { x: 340, y: 400 }, { x: 300, y: 400 }];
    expect(round(lengthenQuad(q, 0, 50))).toEqual([{ x: 0, y: 0 }, { x: 40, y: 0 }, { x: 370, y: 440 }, { x: 330, y: 440 }]);
  });
});

describe('widenQuad', () => {
  it('moves a line\'s ends along its own axis by parts of its height', () => {
    const q: Quad = [{ x: 100, y: 10 }, { x: 300, y: 10 }, { x: 300, y: 50 }, { x: 100, y: 50 }];
    expect(round(widenQuad(q, 1, 0.5))).toEqual([{ x: 60, y: 10 }, { x: 320, y: 10 }, { x: 320, y: 50 }, { x: 60, y: 50 }]);
  });
});
