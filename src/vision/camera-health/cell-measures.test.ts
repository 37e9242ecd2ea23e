import { describe, expect, it } from 'vitest';
import { glaredFraction } from './cell-measures.js';
import { CELL_X, CELL_Y, featuresOf } from './features.js';

const W = 320;
const H = 240;
const CELL = W / CELL_X; // 10 px square cells at this size

/** A textured grey view (contrast in every cell), with some cells painted over. */
function view(paint: (cx: number, cy: number) => 'blown' | 'washed' | null) {
  const grey = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const texture = ((x * 7 + y * 13) % 9) * 6; // 0..48
      const kind = paint(Math.floor(x / CELL), Math.floor(y / CELL));
      grey[y * W + x] = kind === 'blown' ? 255 : kind === 'washed' ? 200 + texture / 3 : 80 + texture;
    }
  }
  return featuresOf(grey, null, W, H, W / H);
}

describe('glare on the cell grid', () => {
  const reference = view(() => null);
  const cells = CELL_X * CELL_Y;

  it('counts a light and the washed-out cells that touch it', () => {
    // A vertical streak two cells wide, washed out a cell to each side.
    const streak = view((cx, cy) => (cy < 12 && (cx === 10 || cx === 11) ? 'blown' : cy < 12 && (cx === 9 || cx === 12) ? 'washed' : null));
    expect(glaredFraction(reference, streak)).toBeCloseTo(48 / cells, 5);
  });

  it('does not count specks of reflection as a light, nor the wash between them', () => {
    // Six blown cells scattered over a washed-out half: bubble wrap or wet plastic glinting.
    const specks = view((cx, cy) => ((cx * 5 + cy * 3) % 71 === 0 && cy < 12 ? 'blown' : cx < 16 ? 'washed' : null));
    const blown = Array.from({ length: 12 }, (_, cy) => Array.from({ length: CELL_X }, (_, cx) => (cx * 5 + cy * 3) % 71 === 0)).flat().filter(Boolean).length;
    expect(blown).toBeLessThan(8);
    expect(glaredFraction(reference, specks)).toBeCloseTo(blown / cells, 5);
  });
});
