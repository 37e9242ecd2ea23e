import { describe, expect, it } from 'vitest';
import { defaultVisionSettings, ocrEngineOptions } from '../settings.js';
import { glibcVersion, leanMemoryWarning } from './lean-memory.js';

describe('lean inference memory', () => {
  it('warns when lean memory runs on glibc without a fixed mmap threshold, and only then', () => {
    expect(leanMemoryWarning('lean', {}, () => '2.36')).toMatch(/MALLOC_MMAP_THRESHOLD_=4194304/);
    expect(leanMemoryWarning('lean', { MALLOC_MMAP_THRESHOLD_: '4194304' }, () => '2.36')).toBeUndefined();
    expect(leanMemoryWarning('lean', {}, () => undefined)).toBeUndefined();
    expect(leanMemoryWarning('arena', {}, () => '2.36')).toBeUndefined();
  });

  it('finds the C library of this process where it is glibc', () => {
    if (process.platform === 'linux' && glibcVersion() === undefined) return; // musl: nothing to find
    if (process.platform === 'linux') expect(glibcVersion()).toMatch(/^\d+\.\d+/);
    else expect(glibcVersion()).toBeUndefined();
  });

  it('reaches the OCR engine: lean turns its sessions\' arenas off, the default keeps them', () => {
    expect(ocrEngineOptions(defaultVisionSettings()).memoryArena).toBe(true);
    expect(ocrEngineOptions({ ...defaultVisionSettings(), inferenceMemory: 'lean' }).memoryArena).toBe(false);
  });
});
