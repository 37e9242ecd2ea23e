import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { SLOT_HEIGHT, writeSlot } from './identifier-slot.js';
import { STACK_WIDTH, turnColumn } from './stack-reader.js';

/** A grey column `w` x `h` with a black band across its top `mark` rows. */
function column(w: number, h: number, mark: number): RawImage {
  const data = Buffer.alloc(w * h * 3, 200);
  data.fill(0, 0, w * mark * 3);
  return { data, width: w, height: h, channels: 3 };
}

/** Channel 0 of the input at (x, y). */
const at = (input: Float32Array, x: number, y: number) => input[y * STACK_WIDTH + x]!;

describe('a column in the stack reader’s slot', () => {
  it('turns a column so its top reads first, at the slot’s left', () => {
    const input = new Float32Array(3 * SLOT_HEIGHT * STACK_WIDTH);
    // 20 x 100: turned 100 x 20, scaled to 240 x 48; its top fifth is black.
    writeSlot(turnColumn(column(20, 100, 20)), input, 0, STACK_WIDTH);
    expect(at(input, 10, 24)).toBe(0);
    expect(at(input, 100, 24)).toBeCloseTo(200 / 255, 5);
    // Past the column's 240 columns, the trainer's grey.
    expect(at(input, 250, 24)).toBeCloseTo(128 / 255, 5);
  });

  it('squeezes a column longer than the slot into it, its last character included', () => {
    const input = new Float32Array(3 * SLOT_HEIGHT * STACK_WIDTH);
    writeSlot(turnColumn(column(10, 400, 0)), input, 0, STACK_WIDTH);
    // A 10 x 400 column turned is 1,920 columns long at height 48: squeezed to 256, no grey.
    expect(at(input, STACK_WIDTH - 1, 24)).toBeCloseTo(200 / 255, 5);
  });
});
