import { floatsOf, type OnnxGraph, type OnnxNode, type OnnxTensorData, TensorType } from './onnx-model.js';

/** What the rewrites of onnx-fold.ts ask of a graph: who reads and writes each tensor, and the
 * constants they fold. */

/** The nodes that read each tensor. */
export function consumers(graph: OnnxGraph): Map<string, OnnxNode[]> {
  const map = new Map<string, OnnxNode[]>();
  for (const n of graph.nodes) for (const i of n.inputs) (map.get(i) ?? map.set(i, []).get(i)!).push(n);
  return map;
}

/** The node that writes each tensor. */
export function producersOf(graph: OnnxGraph): Map<string, OnnxNode> {
  return new Map(graph.nodes.flatMap((n) => n.outputs.map((o) => [o, n] as const)));
}

/** The value of a float initializer holding one number, else undefined. */
export function scalarOf(graph: OnnxGraph, name: string): number | undefined {
  const t = graph.initializers.get(name);
  if (!t || t.dataType !== TensorType.FLOAT) return undefined;
  const v = floatsOf(t);
  return v.length === 1 ? v[0] : undefined;
}

/** For a binary node with one scalar-constant input: that value and the other input. */
export function scalarOperand(graph: OnnxGraph, n: OnnxNode): { value: number; other: string } | undefined {
  if (n.inputs.length !== 2) return undefined;
  for (const k of [0, 1]) {
    const value = scalarOf(graph, n.inputs[k]!);
    if (value !== undefined && scalarOf(graph, n.inputs[1 - k]!) === undefined) return { value, other: n.inputs[1 - k]! };
  }
  return undefined;
}

export const floatTensor = (name: string, dims: number[], values: Float32Array): OnnxTensorData => ({
  name,
  dims,
  dataType: TensorType.FLOAT,
  raw: new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength)),
});

export const isGraphOutput = (graph: OnnxGraph, name: string) => graph.outputs.includes(name);

/** The per-channel values of a float initializer shaped [C] or [1, C, 1, 1], else undefined. */
export function channelValues(graph: OnnxGraph, name: string, channels: number): Float32Array | undefined {
  const t = graph.initializers.get(name);
  if (!t || t.dataType !== TensorType.FLOAT) return undefined;
  const perChannel = t.dims.length === 1 ? t.dims[0] === channels : t.dims.length === 4 && t.dims[1] === channels && t.dims[0] === 1 && t.dims[2] === 1 && t.dims[3] === 1;
  return perChannel ? floatsOf(t) : undefined;
}
