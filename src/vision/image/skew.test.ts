import { describe, expect, it } from 'vitest';
import type { RawImage } from './decode.js';
import { estimateSkew } from './skew.js';

const DEGREE = Math.PI / 180;

/**
 * A light plate with a dark border and a row of dark characters, turned `degrees` clockwise
 * about (cx, cy), on a mid-grey ground: what a plate photographed crooked looks like to the
 * estimator. Each pixel is drawn from its position in the plate's own, level frame.
 */
function tiltedPlate(degrees: number, { width = 400, height = 240, plateW = 180, plateH = 60, cx = 200, cy = 120 } = {}): RawImage {
  const data = Buffer.alloc(width * height * 3);
  const cos = Math.cos(degrees * DEGREE);
  const sin = Math.sin(degrees * DEGREE);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Back into the plate's frame: the clockwise turn undone.
      const u = (x - cx) * cos + (y - cy) * sin;
      const v = -(x - cx) * sin + (y - cy) * cos;
      let value = 120;
      if (Math.abs(u) < plateW / 2 && Math.abs(v) < plateH / 2) {
        const border = Math.abs(u) > plateW / 2 - 3 || Math.abs(v) > plateH / 2 - 3;
        const column = (u + plateW / 2 - 12) % 22;
        const character = Math.abs(v) < plateH * 0.3 && u > -plateW / 2 + 12 && u < plateW / 2 - 12 && column < 14 && (column < 4 || column > 10 || Math.abs(v) > plateH * 0.22);
        value = border || character ? 25 : 235;
      }
      data.fill(value, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
  }
  return { data, width, height, channels: 3 };
}

/** The region a plate detector would box: the upright box around the turned plate. */
function boxAround(degrees: number, plateW = 180, plateH = 60, cx = 200, cy = 120) {
  const cos = Math.abs(Math.cos(degrees * DEGREE));
  const sin = Math.abs(Math.sin(degrees * DEGREE));
  const w = plateW * cos + plateH * sin;
  const h = plateW * sin + plateH * cos;
  return { x0: cx - w / 2, y0: cy - h / 2, x1: cx + w / 2, y1: cy + h / 2 };
}

describe('estimateSkew', () => {
  it('finds the slope of a plate turned either way, to within a degree', () => {
    for (const degrees of [-17, -9, -4, 0, 3, 8, 14]) {
      const found = estimateSkew(tiltedPlate(degrees), boxAround(degrees)) / DEGREE;
      expect(found, `${degrees} degrees`).toBeCloseTo(degrees, 0);
    }
  });

  it('finds it in a small plate and in a box larger than the plate', () => {
    const small = tiltedPlate(11, { plateW: 60, plateH: 20 });
    expect(estimateSkew(small, boxAround(11, 60, 20)) / DEGREE).toBeCloseTo(11, 0);
    const loose = boxAround(-12);
    const grown = { x0: loose.x0 - 30, y0: loose.y0 - 30, x1: loose.x1 + 30, y1: loose.y1 + 30 };
    expect(estimateSkew(tiltedPlate(-12), grown) / DEGREE).toBeCloseTo(-12, 0);
  });

  it('says 0 for a region too small to tell, one outside the picture and a blank one', () => {
    const plate = tiltedPlate(10);
    expect(estimateSkew(plate, { x0: 190, y0: 115, x1: 200, y1: 120 })).toBe(0);
    expect(estimateSkew(plate, { x0: 500, y0: 300, x1: 700, y1: 400 })).toBe(0);
    expect(estimateSkew(plate, { x0: 0, y0: 0, x1: 60, y1: 40 })).toBe(0);
  });
});
