import { consumers, floatTensor } from './onnx-fold.js';
import { floatsOf, opsetVersion, type OnnxGraph, type OnnxModel, type OnnxNode, type OnnxTensorData, TensorType } from './onnx-model.js';
import { bytesField, encodeMessage, intField, stringField } from './protobuf-wire.js';

/**
 * Static int8 quantization in the QDQ form: every quantized Conv reads DequantizeLinear outputs
 * (activations uint8 per tensor, weights int8 per output channel, bias int32) and its output
 * passes through QuantizeLinear/DequantizeLinear, so onnxruntime fuses the group into one
 * QLinearConv. The Q/DQ nodes are com.microsoft's, which take a per-channel axis whatever the
 * model's ONNX opset (the PP-OCR models are opset 9 and 11).
 */

/** Observed [min, max] of a float tensor on calibration inputs. */
export type TensorRanges = Record<string, [number, number]>;

export interface QuantizeOptions {
  /** Conv nodes (by output name) kept in fp32. */
  keepFloat?: ReadonlySet<string>;
}

const MS_DOMAIN = 'com.microsoft';

/** The Conv nodes a static quantization would touch: constant float weights, 4-D. */
export function quantizableConvs(graph: OnnxGraph, keepFloat: ReadonlySet<string> = new Set()): OnnxNode[] {
  return graph.nodes.filter((n) => {
    if (n.opType !== 'Conv' || keepFloat.has(n.outputs[0]!)) return false;
    const w = graph.initializers.get(n.inputs[1]!);
    const b = n.inputs[2] ? graph.initializers.get(n.inputs[2]) : undefined;
    return w?.dataType === TensorType.FLOAT && w.dims.length === 4 && (!n.inputs[2] || b?.dataType === TensorType.FLOAT);
  });
}

/** Tensors whose ranges a quantization of `convs` needs: their inputs and outputs. */
export function tensorsToCalibrate(convs: readonly OnnxNode[]): string[] {
  return [...new Set(convs.flatMap((c) => [c.inputs[0]!, c.outputs[0]!]))];
}

/** uint8 asymmetric parameters for a range that always contains 0 (so padding stays exact). */
export function activationParams([lo, hi]: [number, number]): { scale: number; zeroPoint: number } {
  const min = Math.min(0, lo);
  const max = Math.max(0, hi);
  const scale = max > min ? (max - min) / 255 : 1;
  return { scale, zeroPoint: Math.min(255, Math.max(0, Math.round(-min / scale))) };
}

/** int8 symmetric per output channel (axis 0): q = round(w / scale), scale = max|w| / 127. */
export function quantizeWeightsPerChannel(w: Float32Array, outChannels: number): { q: Int8Array; scales: Float32Array } {
  const per = w.length / outChannels;
  const q = new Int8Array(w.length);
  const scales = new Float32Array(outChannels);
  for (let c = 0; c < outChannels; c++) {
    let maxAbs = 0;
    for (let k = 0; k < per; k++) maxAbs = Math.max(maxAbs, Math.abs(w[c * per + k]!));
    const scale = maxAbs > 0 ? maxAbs / 127 : 1;
    scales[c] = scale;
    for (let k = 0; k < per; k++) q[c * per + k] = Math.max(-127, Math.min(127, Math.round(w[c * per + k]! / scale)));
  }
  return { q, scales };
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer.slice(a.byteOffset, a.byteOffset + a.byteLength));
const tensor = (name: string, dims: number[], dataType: number, data: ArrayBufferView): OnnxTensorData => ({ name, dims, dataType, raw: bytesOf(data) });

/** Rewrites `model` in place; returns how many Conv nodes became int8. */
export function quantizeConvsStatic(model: OnnxModel, ranges: TensorRanges, options: QuantizeOptions = {}): number {
  const graph = model.graph;
  const convs = quantizableConvs(graph, options.keepFloat).filter((c) => ranges[c.inputs[0]!] && ranges[c.outputs[0]!]);
  if (convs.length === 0) return 0;
  const init = graph.initializers;
  const uses = consumers(graph);
  // Per tensor: the float name quantized convs read (a DQ output) once its Q/DQ pair exists.
  const dequantized = new Map<string, string>();
  // New nodes, each placed right after the node whose output it reads (undefined: a graph input).
  const inserted = new Map<OnnxNode | undefined, OnnxNode[]>();
  const emitAfter = (anchor: OnnxNode | undefined, ...nodes: OnnxNode[]) => (inserted.get(anchor) ?? inserted.set(anchor, []).get(anchor)!).push(...nodes);
  const producer = new Map(graph.nodes.flatMap((n) => n.outputs.map((o) => [o, n] as const)));

  const qdqPair = (floatIn: string, floatOut: string, name: string): OnnxNode[] => {
    const { scale, zeroPoint } = activationParams(ranges[name]!);
    init.set(`${name}_scale`, floatTensor(`${name}_scale`, [], Float32Array.of(scale)));
    init.set(`${name}_zp`, tensor(`${name}_zp`, [], TensorType.UINT8, Uint8Array.of(zeroPoint)));
    const q = `${name}_quantized`;
    return [
      { name: `${name}_Q`, opType: 'QuantizeLinear', domain: MS_DOMAIN, inputs: [floatIn, `${name}_scale`, `${name}_zp`], outputs: [q], attributes: [] },
      { name: `${name}_DQ`, opType: 'DequantizeLinear', domain: MS_DOMAIN, inputs: [q, `${name}_scale`, `${name}_zp`], outputs: [floatOut], attributes: [] },
    ];
  };

  for (const conv of convs) {
    const out = conv.outputs[0]!;
    // The conv's own output: it now writes `<out>_float`, and everyone reads the DQ'd value.
    conv.outputs = [`${out}_float`];
    emitAfter(conv, ...qdqPair(`${out}_float`, out, out));
    dequantized.set(out, out);
  }
  const floatInputs = new Map(convs.map((c) => [c, c.inputs[0]!]));
  for (const conv of convs) {
    const x = floatInputs.get(conv)!;
    if (!dequantized.has(x)) {
      const dq = `${x}_dequantized`;
      emitAfter(producer.get(x), ...qdqPair(x, dq, x));
      dequantized.set(x, dq);
      // Only quantized convs read the DQ'd copy; other consumers keep the float tensor.
      for (const c of uses.get(x) ?? []) if (floatInputs.get(c) === x) c.inputs[0] = dq;
    }
    quantizeConvWeights(graph, conv, activationParams(ranges[x]!).scale);
  }
  graph.nodes = [...(inserted.get(undefined) ?? []), ...graph.nodes.flatMap((n) => [n, ...(inserted.get(n) ?? [])])];
  if (opsetVersion(model, MS_DOMAIN) === undefined) addOpset(model, MS_DOMAIN, 1);
  return convs.length;
}

function quantizeConvWeights(graph: OnnxGraph, conv: OnnxNode, inputScale: number): void {
  const init = graph.initializers;
  const wName = conv.inputs[1]!;
  const weight = init.get(wName)!;
  const outChannels = weight.dims[0]!;
  const { q, scales } = quantizeWeightsPerChannel(floatsOf(weight), outChannels);
  const id = conv.outputs[0]!;
  init.set(`${id}_w_q`, tensor(`${id}_w_q`, weight.dims, TensorType.INT8, q));
  init.set(`${id}_w_scale`, floatTensor(`${id}_w_scale`, [outChannels], scales));
  init.set(`${id}_w_zp`, tensor(`${id}_w_zp`, [outChannels], TensorType.INT8, new Int8Array(outChannels)));
  const dq: OnnxNode[] = [
    { name: `${id}_w_DQ`, opType: 'DequantizeLinear', domain: MS_DOMAIN, inputs: [`${id}_w_q`, `${id}_w_scale`, `${id}_w_zp`], outputs: [`${id}_w`], attributes: [{ name: 'axis', kind: 'int', value: 0 }] },
  ];
  const inputs = [conv.inputs[0]!, `${id}_w`];
  if (conv.inputs[2]) {
    const bias = floatsOf(init.get(conv.inputs[2])!);
    const bScale = scales.map((s) => s * inputScale);
    const bq = Int32Array.from(bias, (b, c) => Math.round(b / bScale[c]!));
    init.set(`${id}_b_q`, tensor(`${id}_b_q`, [outChannels], TensorType.INT32, bq));
    init.set(`${id}_b_scale`, floatTensor(`${id}_b_scale`, [outChannels], bScale));
    init.set(`${id}_b_zp`, tensor(`${id}_b_zp`, [outChannels], TensorType.INT32, new Int32Array(outChannels)));
    dq.push({ name: `${id}_b_DQ`, opType: 'DequantizeLinear', domain: MS_DOMAIN, inputs: [`${id}_b_q`, `${id}_b_scale`, `${id}_b_zp`], outputs: [`${id}_b`], attributes: [{ name: 'axis', kind: 'int', value: 0 }] });
    inputs.push(`${id}_b`);
  }
  conv.inputs = inputs;
  // Weight DQs have no graph input: place them first.
  graph.nodes.unshift(...dq);
}

export function addOpset(model: OnnxModel, domain: string, version: number): void {
  model.rest.push(bytesField(8, encodeMessage([stringField(1, domain), intField(2, version)])));
}
