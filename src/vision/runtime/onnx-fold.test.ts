import { describe, expect, it } from 'vitest';
import { floatInit, lcnetBlock, node, noise, runModel, tinyModel } from '../../../test/fixtures/onnx-models.js';
import { constantsToInitializers, foldIntoConvTranspose, foldScalarAffineIntoConv, foldScalarAffineIntoNextConv, foldScalarScaleIntoNextConv, fuseHardSwish, pruneInitializers } from './onnx-fold.js';
import { encodeOnnxModel, encodeTensor, parseOnnxModel } from './onnx-model.js';
import { bytesField, intField, stringField } from './protobuf-wire.js';

const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);

describe('exact fp32 folds of the PP-LCNetV3 block', () => {
  it('leaves conv, HardSigmoid, Mul, conv and the same output', async () => {
    const input = noise(256, 9).map((v) => v * 4);
    const before = await runModel(lcnetBlock(), input, [1, 4, 8, 8]);
    const model = lcnetBlock();
    expect(foldScalarAffineIntoConv(model.graph)).toBe(1);
    expect(fuseHardSwish(model.graph)).toBe(1);
    expect(foldScalarAffineIntoNextConv(model.graph)).toBe(1);
    pruneInitializers(model.graph);
    expect(model.graph.nodes.map((n) => n.opType)).toEqual(['Conv', 'HardSigmoid', 'Mul', 'Conv']);
    const after = await runModel(model, input, [1, 4, 8, 8]);
    expect(maxDiff(before, after)).toBeLessThan(1e-5);
  });

  it('moves only the scale into a padded (3x3) conv, where a shift in the bias would change the borders', async () => {
    const padded = () => {
      const model = lcnetBlock();
      const last = model.graph.nodes.at(-1)!;
      last.attributes = [{ name: 'pads', kind: 'ints', value: [1, 1, 1, 1] }, { name: 'kernel_shape', kind: 'ints', value: [3, 3] }];
      model.graph.initializers.set('w2', floatInit('w2', [5, 6, 3, 3], noise(270, 3)));
      return model;
    };
    const input = noise(256, 9).map((v) => v * 4);
    const before = await runModel(padded(), input, [1, 4, 8, 8]);
    const model = padded();
    foldScalarAffineIntoConv(model.graph);
    fuseHardSwish(model.graph);
    expect(foldScalarAffineIntoNextConv(model.graph)).toBe(0);
    expect(foldScalarScaleIntoNextConv(model.graph)).toBe(1);
    expect(model.graph.nodes.map((n) => n.opType)).toEqual(['Conv', 'HardSigmoid', 'Mul', 'Add', 'Conv']);
    // Float rounding only: a millionth of the output's scale.
    const scale = before.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    expect(maxDiff(before, await runModel(model, input, [1, 4, 8, 8]))).toBeLessThan(scale * 1e-6);
  });

  it('does not fold when the conv output has another reader', () => {
    const model = lcnetBlock();
    model.graph.nodes.push(node('Relu', ['c1'], ['side']));
    expect(foldScalarAffineIntoConv(model.graph)).toBe(0);
  });

  it('turns Constant nodes into initializers and survives a serialize/parse round trip', () => {
    const model = lcnetBlock();
    const six = model.graph.initializers.get('six')!;
    model.graph.initializers.delete('six');
    // A Constant node carrying the tensor, as paddle2onnx stores every weight.
    model.graph.nodes.unshift({ ...node('Constant', [], ['six']), attributes: [{ name: 'value', kind: 'raw', fields: [stringField(1, 'value'), bytesField(5, encodeTensor(six)), intField(20, 4)] }] });
    const reparsed = parseOnnxModel(encodeOnnxModel(model));
    constantsToInitializers(reparsed.graph);
    expect(reparsed.graph.nodes.some((n) => n.opType === 'Constant')).toBe(false);
    expect(Array.from(new Float32Array(reparsed.graph.initializers.get('six')!.raw.buffer))).toEqual([6]);
  });
});

describe('folds into the DB head\'s transposed convolutions', () => {
  /** ConvTranspose (2x2, stride 2, 4 -> 3 channels) → Add(per-channel) → BatchNormalization → Relu. */
  const head = (withAdd = true, withBn = true) => {
    const nodes = [node('ConvTranspose', ['x', 'w'], ['ct'], [
      { name: 'kernel_shape', kind: 'ints', value: [2, 2] }, { name: 'strides', kind: 'ints', value: [2, 2] },
    ])];
    let last = 'ct';
    if (withAdd) nodes.push(node('Add', [last, 'bias'], ['added'])), (last = 'added');
    if (withBn) nodes.push(node('BatchNormalization', [last, 'gamma', 'beta', 'mean', 'var'], ['bn'], [{ name: 'epsilon', kind: 'float', value: 1e-5 }])), (last = 'bn');
    nodes.push(node('Relu', [last], ['y']));
    return tinyModel(nodes, [
      floatInit('w', [4, 3, 2, 2], noise(48, 5)),
      floatInit('bias', [1, 3, 1, 1], [0.2, -0.4, 0.1]),
      floatInit('gamma', [3], [1.3, 0.7, 2]),
      floatInit('beta', [3], [0.1, 0.3, -0.2]),
      floatInit('mean', [3], [0.05, -0.1, 0.2]),
      floatInit('var', [3], [0.5, 1.5, 0.9]),
    ], [1, 4, 6, 6]);
  };

  it.each([
    { name: 'the bias Add and the normalisation', withAdd: true, withBn: true },
    { name: 'a bias Add alone', withAdd: true, withBn: false },
    { name: 'a normalisation alone', withAdd: false, withBn: true },
  ])('takes $name into the ConvTranspose, with the same output', async ({ withAdd, withBn }) => {
    const input = noise(144, 11);
    const before = await runModel(head(withAdd, withBn), input, [1, 4, 6, 6]);
    const model = head(withAdd, withBn);
    expect(foldIntoConvTranspose(model.graph)).toBe(1);
    pruneInitializers(model.graph);
    expect(model.graph.nodes.map((n) => n.opType)).toEqual(['ConvTranspose', 'Relu']);
    expect(maxDiff(before, await runModel(model, input, [1, 4, 6, 6]))).toBeLessThan(1e-5);
  });

  it('leaves a ConvTranspose whose output has another reader', () => {
    const model = head();
    model.graph.nodes.push(node('Sigmoid', ['ct'], ['side']));
    expect(foldIntoConvTranspose(model.graph)).toBe(0);
  });
});
