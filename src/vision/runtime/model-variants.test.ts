import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { noise, runModel } from '../../../test/fixtures/onnx-models.js';
import { fusedModelBytes, parseOcrPrecision } from './model-variants.js';
import { createOnnxSession, OCR_MODEL_FILES, resolveModelAsset, runSingle } from './onnx-session.js';

const cacheDir = mkdtempSync(join(tmpdir(), 'vigil-variants-test-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

describe('OCR_PRECISION', () => {
  it.each([
    [undefined, 'fused'],
    ['', 'fused'],
    ['FUSED', 'fused'],
    [' fp32 ', 'fp32'],
  ])('%j means %s', (value, precision) => expect(parseOcrPrecision(value)).toBe(precision));

  it('refuses an unknown value rather than silently running another graph', () => {
    expect(() => parseOcrPrecision('int8')).toThrow(/fp32, fused/);
  });
});

describe('fused PP-OCRv4 models', () => {
  it('give the shipped detector\'s output on a photo-sized input, and are cached by hash', async () => {
    const source = resolveModelAsset(OCR_MODEL_FILES.detection);
    const fused = fusedModelBytes(source, cacheDir);
    expect(readdirSync(cacheDir).filter((f) => /-fused-v\d+\.onnx$/.test(f))).toHaveLength(1);
    expect(fused.length).toBeLessThan(readFileSync(source).length);
    const input = noise(3 * 96 * 160, 5).map((v) => v * 2);
    const shipped = await runModel(readFileSync(source), input, [1, 3, 96, 160]);
    const derived = await runModel(fused, input, [1, 3, 96, 160]);
    expect(derived.reduce((m, v, i) => Math.max(m, Math.abs(v - shipped[i]!)), 0)).toBeLessThan(1e-4);
    // The second call reads the cache.
    expect(Buffer.from(fusedModelBytes(source, cacheDir)).equals(Buffer.from(fused))).toBe(true);
  });
});

describe('the fused model cache', () => {
  it.each([
    [0o700, 'reads a cached file from its own private directory', true],
    [0o777, 'ignores a file planted in a directory other users can write to', false],
  ])('mode %o: %s', (mode, _what, used) => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-variants-mode-'));
    try {
      chmodSync(dir, mode);
      const source = resolveModelAsset(OCR_MODEL_FILES.detection);
      const hash = createHash('sha256').update(readFileSync(source)).digest('hex').slice(0, 16);
      writeFileSync(join(dir, `${hash}-fused-v3.onnx`), 'planted');
      const bytes = Buffer.from(fusedModelBytes(source, dir));
      expect(bytes.toString() === 'planted').toBe(used);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('createOnnxSession', () => {
  it('falls back to the shipped model with a warning when a variant cannot be built', async () => {
    const variants = await import('./model-variants.js');
    const spy = vi.spyOn(variants, 'fusedModelBytes').mockImplementation(() => {
      throw new Error('boom');
    });
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      const session = await createOnnxSession(OCR_MODEL_FILES.recognition, { precision: 'fused', intraOpNumThreads: 1 });
      const out = await runSingle(session, new Float32Array(3 * 48 * 320), [1, 3, 48, 320]);
      expect(out.dims[1]).toBe(40);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('using the shipped fp32 model'));
    } finally {
      spy.mockRestore();
      warn.mockRestore();
    }
  });

  it('runs the shipped file for fp32 without deriving anything', async () => {
    const session = await createOnnxSession(OCR_MODEL_FILES.angle, { precision: 'fp32', intraOpNumThreads: 1 });
    expect(session.inputNames).toHaveLength(1);
    expect(existsSync(cacheDir)).toBe(true);
  });
});
