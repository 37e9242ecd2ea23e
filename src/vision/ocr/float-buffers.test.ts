import { describe, expect, it } from 'vitest';
import { FloatBufferPool } from './float-buffers.js';

describe('FloatBufferPool', () => {
  it('lends a buffer handed back again, at the same length only, and never one still lent', () => {
    const pool = new FloatBufferPool();
    const a = pool.take(12);
    const b = pool.take(12);
    expect(b).not.toBe(a);
    pool.give(a);
    expect(pool.take(8)).not.toBe(a);
    expect(pool.take(12)).toBe(a);
    expect(pool.take(12)).not.toBe(a);
  });

  it('keeps only the last few handed back', () => {
    const pool = new FloatBufferPool(2);
    const [a, b, c] = [pool.take(4), pool.take(5), pool.take(6)];
    for (const x of [a, b, c]) pool.give(x);
    expect(pool.take(4)).not.toBe(a);
    expect(pool.take(5)).toBe(b);
    expect(pool.take(6)).toBe(c);
  });
});
