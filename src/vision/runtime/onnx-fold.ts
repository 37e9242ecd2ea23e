import {
  attributeFloat,
  attributeInt,
  decodeTensor,
  attributeInts,
  floatsOf,
  type OnnxGraph,
  type OnnxNode,
  TensorType,
} from './onnx-model.js';
import { channelValues, consumers, floatTensor, isGraphOutput, producersOf, scalarOf, scalarOperand } from './onnx-graph-queries.js';

/**
 * Exact fp32 rewrites of the PP-OCRv4 graphs as paddle2onnx wrote them. PP-LCNetV3 follows each
 * convolution with a "learnable affine block" (a scalar Mul and Add) and spells hardswish as
 * Add, Clip, Mul, Div: six elementwise passes over every feature map that onnxruntime does not
 * fuse. Folding the affine block into the convolution's weights and writing hardswish as
 * HardSigmoid times x leaves two, with the same arithmetic up to float rounding.
 */

/** Constant nodes holding a tensor become initializers, so passes can read and rewrite them. */
export function constantsToInitializers(graph: OnnxGraph): void {
  graph.nodes = graph.nodes.filter((n) => {
    if (n.opType !== 'Constant' || n.attributes.length !== 1) return true;
    const a = n.attributes[0]!;
    if (a.name !== 'value' || a.kind !== 'raw') return true;
    const t = a.fields.find((f) => f.no === 5 /* AttributeProto.t */);
    if (!t) return true;
    const tensor = decodeTensor(t.value as Uint8Array);
    graph.initializers.set(n.outputs[0]!, { ...tensor, name: n.outputs[0]! });
    return false;
  });
}

/** Conv → Mul(a) → Add(b) with scalars becomes one Conv with weights·a and bias·a + b. */
export function foldScalarAffineIntoConv(graph: OnnxGraph): number {
  let folded = 0;
  const uses = consumers(graph);
  const removed = new Set<OnnxNode>();
  for (const conv of graph.nodes) {
    if (conv.opType !== 'Conv' || removed.has(conv)) continue;
    const weight = graph.initializers.get(conv.inputs[1]!);
    const out = conv.outputs[0]!;
    const next = uses.get(out);
    if (!weight || weight.dataType !== TensorType.FLOAT || next?.length !== 1 || isGraphOutput(graph, out)) continue;
    const mul = next[0]!;
    const scale = mul.opType === 'Mul' ? scalarOperand(graph, mul) : undefined;
    if (!scale) continue;
    const afterMul = uses.get(mul.outputs[0]!);
    const add = afterMul?.length === 1 && afterMul[0]!.opType === 'Add' && !isGraphOutput(graph, mul.outputs[0]!) ? afterMul[0]! : undefined;
    const shift = add ? scalarOperand(graph, add) : undefined;
    const w = floatsOf(weight).map((v) => v * scale.value);
    const outChannels = weight.dims[0]!;
    const biasName = conv.inputs[2];
    const oldBias = biasName ? floatsOf(graph.initializers.get(biasName)!) : new Float32Array(outChannels);
    const bias = oldBias.map((v) => v * scale.value + (shift?.value ?? 0));
    const wName = `${conv.inputs[1]}_folded`;
    const bName = `${conv.outputs[0]}_folded_bias`;
    graph.initializers.set(wName, floatTensor(wName, weight.dims, w));
    graph.initializers.set(bName, floatTensor(bName, [outChannels], bias));
    const last = shift ? add! : mul;
    conv.inputs = [conv.inputs[0]!, wName, bName];
    conv.outputs = [last.outputs[0]!];
    removed.add(mul);
    if (shift) removed.add(add!);
    folded++;
  }
  graph.nodes = graph.nodes.filter((n) => !removed.has(n));
  return folded;
}

/** x · clip(x + 3, 0, 6) / 6 (hardswish as paddle2onnx writes it) becomes x · HardSigmoid(x). */
export function fuseHardSwish(graph: OnnxGraph): number {
  let fused = 0;
  const uses = consumers(graph);
  const removed = new Set<OnnxNode>();
  const producers = producersOf(graph);
  for (const div of graph.nodes) {
    if (div.opType !== 'Div' || scalarOf(graph, div.inputs[1]!) !== 6) continue;
    const mul = producers.get(div.inputs[0]!);
    if (mul?.opType !== 'Mul' || uses.get(mul.outputs[0]!)?.length !== 1) continue;
    const clip = mul.inputs.map((i) => producers.get(i)).find((p) => p?.opType === 'Clip');
    if (!clip || uses.get(clip.outputs[0]!)?.length !== 1 || !clipIs0To6(graph, clip)) continue;
    const x = mul.inputs.find((i) => i !== clip.outputs[0]);
    const add = producers.get(clip.inputs[0]!);
    if (!x || add?.opType !== 'Add' || uses.get(add.outputs[0]!)?.length !== 1) continue;
    const plus = scalarOperand(graph, add);
    if (plus?.value !== 3 || plus.other !== x) continue;
    const gate = `${div.outputs[0]}_hardsigmoid`;
    add.opType = 'HardSigmoid';
    add.inputs = [x];
    add.outputs = [gate];
    add.attributes = [
      { name: 'alpha', kind: 'float', value: 1 / 6 },
      { name: 'beta', kind: 'float', value: 0.5 },
    ];
    mul.inputs = [x, gate];
    mul.outputs = [div.outputs[0]!];
    removed.add(clip);
    removed.add(div);
    fused++;
  }
  graph.nodes = graph.nodes.filter((n) => !removed.has(n));
  return fused;
}

function clipIs0To6(graph: OnnxGraph, clip: OnnxNode): boolean {
  if (clip.inputs.length >= 3) return scalarOf(graph, clip.inputs[1]!) === 0 && scalarOf(graph, clip.inputs[2]!) === 6;
  return attributeFloat(clip, 'min') === 0 && attributeFloat(clip, 'max') === 6;
}

/** Drops initializers no node reads any more. */
export function pruneInitializers(graph: OnnxGraph): void {
  const used = new Set(graph.nodes.flatMap((n) => n.inputs));
  for (const name of [...graph.initializers.keys()]) if (!used.has(name)) graph.initializers.delete(name);
}

type ScalarOperand = NonNullable<ReturnType<typeof scalarOperand>>;

/** Every Mul(a) → Add(b) by scalars where the Mul feeds only the Add and the Add feeds other
 * nodes (its readers); neither is a graph output. */
function scalarAffines(graph: OnnxGraph): Array<{ mul: OnnxNode; add: OnnxNode; scale: ScalarOperand; shift: ScalarOperand; readers: OnnxNode[] }> {
  const uses = consumers(graph);
  const producers = producersOf(graph);
  const found = [];
  for (const add of graph.nodes) {
    if (add.opType !== 'Add' || isGraphOutput(graph, add.outputs[0]!)) continue;
    const shift = scalarOperand(graph, add);
    const mul = shift ? producers.get(shift.other) : undefined;
    if (!shift || mul?.opType !== 'Mul' || uses.get(mul.outputs[0]!)?.length !== 1 || isGraphOutput(graph, mul.outputs[0]!)) continue;
    const scale = scalarOperand(graph, mul);
    const readers = uses.get(add.outputs[0]!) ?? [];
    if (scale && readers.length > 0) found.push({ mul, add, scale, shift, readers });
  }
  return found;
}

/** Mul(a) → Add(b) with scalars feeding only 1x1 unpadded Convs becomes part of those Convs:
 * W·(a·x + b) + c = (a·W)·x + (c + b·ΣW). Exact because a 1x1 kernel without padding never
 * reads a padded zero. */
export function foldScalarAffineIntoNextConv(graph: OnnxGraph): number {
  let folded = 0;
  const removed = new Set<OnnxNode>();
  for (const { mul, add, scale, shift, readers } of scalarAffines(graph)) {
    if (!readers.every((c) => isPointwiseConv(graph, c) && c.inputs[0] === add.outputs[0])) continue;
    for (const conv of readers) {
      const weight = graph.initializers.get(conv.inputs[1]!)!;
      const w = floatsOf(weight);
      const outChannels = weight.dims[0]!;
      const per = w.length / outChannels;
      const bias = conv.inputs[2] ? floatsOf(graph.initializers.get(conv.inputs[2])!) : new Float32Array(outChannels);
      const newBias = new Float32Array(outChannels);
      for (let c = 0; c < outChannels; c++) {
        let sum = 0;
        for (let k = 0; k < per; k++) sum += w[c * per + k]!;
        newBias[c] = bias[c]! + shift.value * sum;
      }
      const id = `${conv.outputs[0]}_input_affine`;
      graph.initializers.set(`${id}_w`, floatTensor(`${id}_w`, weight.dims, w.map((v) => v * scale.value)));
      graph.initializers.set(`${id}_b`, floatTensor(`${id}_b`, [outChannels], newBias));
      conv.inputs = [scale.other, `${id}_w`, `${id}_b`];
    }
    removed.add(mul);
    removed.add(add);
    folded++;
  }
  graph.nodes = graph.nodes.filter((n) => !removed.has(n));
  return folded;
}

function isPointwiseConv(graph: OnnxGraph, n: OnnxNode): boolean {
  if (n.opType !== 'Conv') return false;
  const w = graph.initializers.get(n.inputs[1]!);
  if (!w || w.dataType !== TensorType.FLOAT || w.dims.length !== 4 || w.dims[2] !== 1 || w.dims[3] !== 1) return false;
  if ((attributeInt(n, 'group') ?? 1) !== 1) return false;
  const pads = attributeInts(n, 'pads') ?? [];
  const autoPad = n.attributes.find((a) => a.name === 'auto_pad');
  return pads.every((p) => p === 0) && (!autoPad || (autoPad.kind === 'string' && autoPad.value === 'NOTSET'));
}

/** Mul(a) → Add(b) with scalars feeding only Convs that pad (where the shift cannot move into
 * the bias) becomes Add(b / a) and Convs with weights·a: zero padding commutes with a scale, so
 * a·x + b = a·(x + b/a) gives the same convolution with one pass less. */
export function foldScalarScaleIntoNextConv(graph: OnnxGraph): number {
  let folded = 0;
  const removed = new Set<OnnxNode>();
  for (const { mul, add, scale, shift, readers } of scalarAffines(graph)) {
    const isFloatConv = (c: OnnxNode) => c.opType === 'Conv' && c.inputs[0] === add.outputs[0] && graph.initializers.get(c.inputs[1]!)?.dataType === TensorType.FLOAT;
    if (scale.value === 0 || !readers.every(isFloatConv)) continue;
    for (const conv of readers) {
      const weight = graph.initializers.get(conv.inputs[1]!)!;
      const name = `${conv.outputs[0]}_input_scale_w`;
      graph.initializers.set(name, floatTensor(name, weight.dims, floatsOf(weight).map((v) => v * scale.value)));
      conv.inputs = [conv.inputs[0]!, name, ...conv.inputs.slice(2)];
    }
    const shiftName = `${add.outputs[0]}_shift_over_scale`;
    graph.initializers.set(shiftName, floatTensor(shiftName, [], Float32Array.of(shift.value / scale.value)));
    add.inputs = [scale.other, shiftName];
    removed.add(mul);
    folded++;
  }
  graph.nodes = graph.nodes.filter((n) => !removed.has(n));
  return folded;
}

/** ConvTranspose → Add(per-channel constant) → BatchNormalization (either or both) becomes one
 * ConvTranspose: the constant is its bias, and the normalisation's per-channel scale and shift
 * move into its weights and bias. The DB detector's head upsamples its map so twice, and
 * onnxruntime fuses neither, so each costs a pass over the largest feature maps of the graph
 * (a 1x24x176x320 map at 640 x 352). */
export function foldIntoConvTranspose(graph: OnnxGraph): number {
  let folded = 0;
  const uses = consumers(graph);
  const removed = new Set<OnnxNode>();
  const soleReader = (tensor: string) => {
    const readers = uses.get(tensor);
    return readers?.length === 1 && !isGraphOutput(graph, tensor) ? readers[0]! : undefined;
  };
  for (const ct of graph.nodes) {
    if (ct.opType !== 'ConvTranspose' || (attributeInt(ct, 'group') ?? 1) !== 1) continue;
    const weight = graph.initializers.get(ct.inputs[1]!);
    if (!weight || weight.dataType !== TensorType.FLOAT || weight.dims.length !== 4) continue;
    // ConvTranspose weights are [in, out, kh, kw]: output channel c is dimension 1.
    const [inChannels, outChannels, kh, kw] = weight.dims as [number, number, number, number];
    const oldBias = ct.inputs[2] ? channelValues(graph, ct.inputs[2], outChannels) : new Float32Array(outChannels);
    if (!oldBias) continue;
    const bias = Float64Array.from(oldBias);
    const scale = new Float64Array(outChannels).fill(1);
    let out = ct.outputs[0]!;
    const absorbed: OnnxNode[] = [];
    const add = soleReader(out);
    const shift = add?.opType === 'Add' && add.inputs.length === 2 && add.inputs.includes(out)
      ? channelValues(graph, add.inputs.find((i) => i !== out)!, outChannels) : undefined;
    if (add && shift) {
      shift.forEach((v, c) => (bias[c] = bias[c]! + v));
      absorbed.push(add);
      out = add.outputs[0]!;
    }
    const bn = soleReader(out);
    if (bn?.opType === 'BatchNormalization' && bn.outputs.length === 1 && bn.inputs[0] === out) {
      const [gamma, beta, mean, variance] = bn.inputs.slice(1, 5).map((i) => channelValues(graph, i, outChannels));
      const epsilon = attributeFloat(bn, 'epsilon') ?? 1e-5;
      if (gamma && beta && mean && variance) {
        for (let c = 0; c < outChannels; c++) {
          const s = gamma[c]! / Math.sqrt(variance[c]! + epsilon);
          scale[c] = s;
          bias[c] = (bias[c]! - mean[c]!) * s + beta[c]!;
        }
        absorbed.push(bn);
        out = bn.outputs[0]!;
      }
    }
    if (absorbed.length === 0) continue;
    const w = floatsOf(weight);
    const per = kh * kw;
    for (let i = 0; i < inChannels; i++) for (let c = 0; c < outChannels; c++) {
      const at = (i * outChannels + c) * per;
      for (let k = 0; k < per; k++) w[at + k] = w[at + k]! * scale[c]!;
    }
    const wName = `${ct.inputs[1]}_folded`;
    const bName = `${out}_folded_bias`;
    graph.initializers.set(wName, floatTensor(wName, weight.dims, w));
    graph.initializers.set(bName, floatTensor(bName, [outChannels], Float32Array.from(bias)));
    ct.inputs = [ct.inputs[0]!, wName, bName];
    ct.outputs = [out];
    for (const n of absorbed) removed.add(n);
    folded++;
  }
  graph.nodes = graph.nodes.filter((n) => !removed.has(n));
  return folded;
}
