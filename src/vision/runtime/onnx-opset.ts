import { attributeInts, type OnnxModel, opsetVersion, TensorType } from './onnx-model.js';
import { asString, decodeMessage, encodeMessage, intField, stringField, bytesField } from './protobuf-wire.js';

/**
 * onnxruntime turns QDQ groups into QLinearConv of the default domain, which exists from opset
 * 10; the PP-OCRv4 recogniser is opset 9. Between 9 and 10 only Slice changed among the ops it
 * uses (starts/ends/axes moved from attributes to inputs), so the move is exact. Any op outside
 * the list below stops the upgrade rather than risk a silent change of meaning.
 */
const SAME_IN_9_AND_10 = new Set([
  'Add', 'AveragePool', 'BatchNormalization', 'Cast', 'Clip', 'Concat', 'Constant', 'Conv', 'ConvTranspose', 'Div',
  'GlobalAveragePool', 'HardSigmoid', 'MatMul', 'Mul', 'Pow', 'ReduceMean', 'Relu', 'Reshape', 'Shape', 'Sigmoid',
  'Softmax', 'Sqrt', 'Squeeze', 'Sub', 'Transpose', 'Unsqueeze',
]);

export function upgradeOpset9To10(model: OnnxModel): void {
  if (opsetVersion(model) !== 9) return;
  const graph = model.graph;
  for (const n of graph.nodes) {
    if (n.domain && n.domain !== 'ai.onnx') continue;
    if (n.opType === 'Slice') {
      const starts = attributeInts(n, 'starts');
      const ends = attributeInts(n, 'ends');
      const axes = attributeInts(n, 'axes');
      if (!starts || !ends) throw new Error(`opset upgrade: Slice ${n.name} without starts/ends`);
      const id = n.outputs[0]!;
      const add = (suffix: string, values: number[]) => {
        const raw = new Uint8Array(values.length * 8);
        values.forEach((v, k) => new DataView(raw.buffer).setBigInt64(k * 8, BigInt(v), true));
        graph.initializers.set(`${id}_${suffix}`, { name: `${id}_${suffix}`, dims: [values.length], dataType: TensorType.INT64, raw });
        return `${id}_${suffix}`;
      };
      n.inputs = [n.inputs[0]!, add('starts', starts), add('ends', ends), ...(axes ? [add('axes', axes)] : [])];
      n.attributes = [];
    } else if (!SAME_IN_9_AND_10.has(n.opType)) {
      throw new Error(`opset upgrade: ${n.opType} may differ between opset 9 and 10`);
    }
  }
  model.rest = model.rest.map((f) => {
    if (f.no !== 8) return f;
    const inner = decodeMessage(f.value as Uint8Array);
    const d = inner.find((g) => g.no === 1);
    if (d && asString(d) !== '') return f;
    return bytesField(8, encodeMessage([stringField(1, ''), intField(2, 10)]));
  });
}
