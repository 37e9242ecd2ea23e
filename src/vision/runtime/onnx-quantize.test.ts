import { describe, expect, it } from 'vitest';
import { lcnetBlock, noise, runModel } from '../../../test/fixtures/onnx-models.js';
import { observeRanges } from './onnx-calibrate.js';
import { foldScalarAffineIntoConv, fuseHardSwish } from './onnx-fold.js';
import { activationParams, quantizableConvs, quantizeConvsStatic, quantizeWeightsPerChannel, tensorsToCalibrate } from './onnx-quantize.js';

describe('int8 parameters', () => {
  it.each([
    { range: [-1, 3] as [number, number], zeroPoint: 64 },
    { range: [0, 6] as [number, number], zeroPoint: 0 },
    { range: [2, 6] as [number, number], zeroPoint: 0 }, // widened to include 0
    { range: [-6, -2] as [number, number], zeroPoint: 255 },
  ])('uint8 activations over $range keep 0 exact (zero point $zeroPoint)', ({ range, zeroPoint }) => {
    const p = activationParams(range);
    expect(p.zeroPoint).toBe(zeroPoint);
    expect((Math.max(0, range[1]) - Math.min(0, range[0])) / p.scale).toBeCloseTo(255, 6);
  });

  it('quantizes weights per output channel, each to its own largest magnitude', () => {
    const { q, scales } = quantizeWeightsPerChannel(Float32Array.of(0.5, -1, 0.25, 0, 10, -4, 0, 0), 2);
    expect(Array.from(scales)).toEqual([1 / 127, 10 / 127].map(Math.fround));
    expect(Array.from(q)).toEqual([64, -127, 32, 0, 127, -51, 0, 0]);
  });
});

describe('static QDQ quantization', () => {
  it('runs in onnxruntime and stays within a few int8 steps of fp32', async () => {
    const model = lcnetBlock();
    foldScalarAffineIntoConv(model.graph);
    fuseHardSwish(model.graph);
    const inputs = [1, 2, 3].map((seed) => ({ data: noise(256, seed).map((v) => v * 4), dims: [1, 4, 8, 8] }));
    const ranges = await observeRanges(model, tensorsToCalibrate(quantizableConvs(model.graph)), inputs);
    const reference = await runModel(model, inputs[0]!.data, [1, 4, 8, 8]);
    expect(quantizeConvsStatic(model, ranges)).toBe(2);
    expect(model.graph.nodes.filter((n) => n.opType === 'QuantizeLinear')).toHaveLength(4); // x, both conv outputs, the second conv's input
    const quantized = await runModel(model, inputs[0]!.data, [1, 4, 8, 8]);
    const [lo, hi] = ranges.y!;
    const worst = reference.reduce((m, v, i) => Math.max(m, Math.abs(v - quantized[i]!)), 0);
    expect(worst).toBeGreaterThan(0); // it did quantize
    expect(worst).toBeLessThan(((hi - lo) / 255) * 4);
  });

  it('keeps the convs asked for in fp32', async () => {
    const model = lcnetBlock();
    const inputs = [{ data: noise(256, 1), dims: [1, 4, 8, 8] }];
    const ranges = await observeRanges(model, tensorsToCalibrate(quantizableConvs(model.graph)), inputs);
    expect(quantizeConvsStatic(model, ranges, { keepFloat: new Set(['c1']) })).toBe(1);
    expect(model.graph.nodes.find((n) => n.outputs[0] === 'c1')?.inputs[1]).toBe('w1');
  });
});
