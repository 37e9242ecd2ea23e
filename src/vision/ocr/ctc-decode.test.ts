import { describe, expect, it } from 'vitest';
import { ctcGreedyDecode } from './ctc-decode.js';

const CHARS = ['', '0', '1', '7'];

/** Frames of one-hot probabilities (0.9 on the winner) from a class index per frame. */
function frames(classes: number[]): Float32Array {
  const probs = new Float32Array(classes.length * CHARS.length).fill(0.1 / (CHARS.length - 1));
  classes.forEach((c, t) => (probs[t * CHARS.length + c] = 0.9));
  return probs;
}

describe('ctcGreedyDecode', () => {
  it('collapses repeats, drops blanks, and keeps a repeat a blank separates', () => {
    const d = ctcGreedyDecode(frames([0, 2, 2, 0, 2, 0, 3, 1, 0]), 9, CHARS.length, CHARS);
    expect(d.text).toBe('1170');
    expect(d.charConfidences).toHaveLength(4);
    expect(d.alternatives[0]![0]).toMatchObject({ char: '1' });
  });

  it('says where each character was seen: the frames it won, scaled to crop columns', () => {
    const probs = frames([0, 2, 2, 0, 0, 0, 3, 1, 0]);
    expect(ctcGreedyDecode(probs, 9, CHARS.length, CHARS).charSpans).toEqual([{ x0: 1, x1: 3 }, { x0: 6, x1: 7 }, { x0: 7, x1: 8 }]);
    // 8 columns a frame, the crop starting 4 columns into the line: the "1" spans 4..20.
    expect(ctcGreedyDecode(probs, 9, CHARS.length, CHARS, { frameWidth: 8, frameOffset: -4 }).charSpans![0]).toEqual({ x0: 4, x1: 20 });
  });

  it('ignores classes outside the mask', () => {
    const mask = Uint8Array.from([1, 1, 1, 0]);
    expect(ctcGreedyDecode(frames([0, 3, 0, 1]), 4, CHARS.length, CHARS, { mask }).text).not.toContain('7');
  });

  it('decodes with a mask exactly as if the masked classes did not exist (best, alternatives, spans)', () => {
    // Many classes, most masked out, random probabilities: the allowed classes alone decide.
    const classes = 40;
    const chars = ['', ...Array.from({ length: classes - 1 }, (_, i) => String.fromCharCode(65 + i))];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const frameCount = 30;
    const probs = Float32Array.from({ length: frameCount * classes }, random);
    const mask = Uint8Array.from({ length: classes }, (_, c) => (c === 0 || c % 3 === 1 ? 1 : 0));
    // Reference: the same map with the masked classes made impossible (below any probability).
    const without = probs.map((p, i) => (mask[i % classes] ? p : -1));
    const masked = ctcGreedyDecode(probs, frameCount, classes, chars, { mask });
    const reference = ctcGreedyDecode(without, frameCount, classes, chars);
    expect(masked.text.length).toBeGreaterThan(3);
    expect(masked).toEqual(reference);
  });
});
