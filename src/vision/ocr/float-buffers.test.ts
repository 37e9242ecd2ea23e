import { describe, expect, it } from 'vitest';
import { FloatBufferPool } from './float-buffers.js';

describe('FloatBufferPool', () => {
  it('lends the smallest buffer handed back that holds the request, never one still lent', () => {
    const pool = new FloatBufferPool();
    const small = pool.take(12);
    const large = pool.take(40);
    expect(large.buffer).not.toBe(small.buffer);
    pool.give(small);
    pool.give(large);
    const a = pool.take(10);
    expect(a.length).toBe(10);
    expect(a.buffer).toBe(small.buffer);
    const b = pool.take(10);
    expect(b.buffer).toBe(large.buffer);
    expect(pool.take(10).buffer).not.toBe(small.buffer);
  });

  it('lends views of a buffer\'s start, and takes the whole buffer back', () => {
    const pool = new FloatBufferPool();
    const whole = pool.take(30);
    pool.give(whole);
    const part = pool.take(5);
    expect([part.byteOffset, part.length]).toEqual([0, 5]);
    pool.give(part);
    expect(pool.take(30).buffer).toBe(whole.buffer);
  });

  it('keeps only the largest few handed back', () => {
    const pool = new FloatBufferPool(2);
    const [a, b, c] = [pool.take(4), pool.take(6), pool.take(5)];
    for (const x of [a, b, c]) pool.give(x);
    expect(pool.take(4).buffer).toBe(c.buffer);
    expect(pool.take(4).buffer).toBe(b.buffer);
    expect(pool.take(4).buffer).not.toBe(a.buffer);
  });

  it('does not keep a buffer larger than it is told to', () => {
    const pool = new FloatBufferPool(3, 100);
    const big = pool.take(101);
    pool.give(big);
    expect(pool.take(101).buffer).not.toBe(big.buffer);
    const fits = pool.take(100);
    pool.give(fits);
    expect(pool.take(100).buffer).toBe(fits.buffer);
  });
});
