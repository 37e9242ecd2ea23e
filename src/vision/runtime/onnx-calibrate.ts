import ort from 'onnxruntime-node';
import { encodeOnnxModel, type OnnxModel } from './onnx-model.js';
import type { TensorRanges } from './onnx-quantize.js';

/** Runs `model` with `tensors` exposed as extra outputs and returns each one's [min, max] over
 * all `inputs` (the model's first input, NCHW float32). */
export async function observeRanges(
  model: OnnxModel,
  tensors: readonly string[],
  inputs: ReadonlyArray<{ data: Float32Array; dims: readonly number[] }>,
): Promise<TensorRanges> {
  const tapped: OnnxModel = { rest: model.rest, graph: { ...model.graph, outputs: [...new Set([...model.graph.outputs, ...tensors])] } };
  const session = await ort.InferenceSession.create(encodeOnnxModel(tapped), {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'basic',
    interOpNumThreads: 1,
  });
  const ranges: TensorRanges = {};
  try {
    for (const input of inputs) {
      const out = await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', input.data, input.dims) }, [...tensors]);
      for (const name of tensors) {
        const data = out[name]!.data as Float32Array;
        let lo = Infinity;
        let hi = -Infinity;
        for (let i = 0; i < data.length; i++) {
          const v = data[i]!;
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
        const r = ranges[name];
        ranges[name] = r ? [Math.min(r[0], lo), Math.max(r[1], hi)] : [lo, hi];
      }
    }
  } finally {
    await session.release();
  }
  return ranges;
}
