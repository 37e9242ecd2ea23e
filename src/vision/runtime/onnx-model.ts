import {
  asFloat,
  asInt,
  asString,
  bytesField,
  decodeMessage,
  encodeMessage,
  floatField,
  intField,
  packedIntsField,
  repeatedInts,
  stringField,
  Wire,
  type WireField,
} from './protobuf-wire.js';

/**
 * An ONNX model opened just far enough to rewrite its main graph: nodes and initializers are
 * parsed, everything else (inputs, outputs, metadata, opsets) stays as wire fields. Field numbers
 * are those of onnx.proto (ModelProto, GraphProto, NodeProto, TensorProto, AttributeProto).
 */

export const TensorType = { FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6, INT64: 7 } as const;

export interface OnnxTensorData {
  name: string;
  dims: number[];
  dataType: number;
  /** Little-endian element bytes (TensorProto.raw_data). */
  raw: Uint8Array;
}

export type OnnxAttribute =
  | { name: string; kind: 'int'; value: number }
  | { name: string; kind: 'float'; value: number }
  | { name: string; kind: 'ints'; value: number[] }
  | { name: string; kind: 'string'; value: string }
  /** Any other attribute, carried as its encoded AttributeProto. */
  | { name: string; kind: 'raw'; fields: WireField[] };

export interface OnnxNode {
  name: string;
  opType: string;
  domain: string;
  inputs: string[];
  outputs: string[];
  attributes: OnnxAttribute[];
}

export interface OnnxGraph {
  nodes: OnnxNode[];
  initializers: Map<string, OnnxTensorData>;
  /** Graph outputs by name; extra ones can be added (calibration taps). */
  outputs: string[];
  /** The graph's other fields (name, inputs, value_info...). */
  rest: WireField[];
  /** Declared output ValueInfoProtos, kept as they were. */
  outputFields: Map<string, WireField>;
}

export interface OnnxModel {
  graph: OnnxGraph;
  /** ModelProto fields other than the graph. */
  rest: WireField[];
}

const MODEL = { opsetImport: 8, graph: 7 };
const GRAPH = { node: 1, initializer: 5, output: 12 };
const NODE = { input: 1, output: 2, name: 3, opType: 4, attribute: 5, domain: 7 };
const TENSOR = { dims: 1, dataType: 2, floatData: 4, int32Data: 5, int64Data: 7, name: 8, rawData: 9 };
const ATTR = { name: 1, f: 2, i: 3, s: 4, ints: 8, type: 20 };
const ATTR_TYPE = { FLOAT: 1, INT: 2, STRING: 3, INTS: 7 };

function parseTensor(fields: WireField[]): OnnxTensorData {
  let name = '';
  let dataType = 0;
  let raw: Uint8Array | undefined;
  const floats: Uint8Array[] = [];
  for (const f of fields) {
    if (f.no === TENSOR.name) name = asString(f);
    else if (f.no === TENSOR.dataType) dataType = asInt(f);
    else if (f.no === TENSOR.rawData) raw = f.value as Uint8Array;
    else if (f.no === TENSOR.floatData) {
      if (f.wire === Wire.Bytes) floats.push(f.value);
      else if (f.wire === Wire.Fixed32) floats.push(f.value);
    } else if (f.no === TENSOR.int64Data || f.no === TENSOR.int32Data) {
      const ints = repeatedInts([f], f.no);
      const size = f.no === TENSOR.int64Data ? 8 : 4;
      const b = new Uint8Array(ints.length * size);
      const view = new DataView(b.buffer);
      ints.forEach((v, k) => (size === 8 ? view.setBigInt64(k * 8, BigInt(v), true) : view.setInt32(k * 4, v, true)));
      floats.push(b);
    } else if (f.no !== TENSOR.dims && f.no !== 12 /* doc_string */) {
      throw new Error(`onnx: tensor ${name} uses field ${f.no} (external or typed data), not supported`);
    }
  }
  if (!raw) raw = concat(floats);
  return { name, dims: repeatedInts(fields, TENSOR.dims), dataType, raw: raw.slice() };
}

/** A serialized TensorProto (e.g. a Constant node's value). */
export const decodeTensor = (bytes: Uint8Array): OnnxTensorData => parseTensor(decodeMessage(bytes));

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function encodeTensor(t: OnnxTensorData): Uint8Array {
  const fields: WireField[] = [];
  if (t.dims.length) fields.push(packedIntsField(TENSOR.dims, t.dims));
  fields.push(intField(TENSOR.dataType, t.dataType), stringField(TENSOR.name, t.name), bytesField(TENSOR.rawData, t.raw));
  return encodeMessage(fields);
}

function parseAttribute(fields: WireField[]): OnnxAttribute {
  const name = asString(fields.find((f) => f.no === ATTR.name)!);
  const typeField = fields.find((f) => f.no === ATTR.type);
  const type = typeField ? asInt(typeField) : 0;
  const one = (no: number) => fields.find((f) => f.no === no);
  if (type === ATTR_TYPE.INT && one(ATTR.i)) return { name, kind: 'int', value: asInt(one(ATTR.i)!) };
  if (type === ATTR_TYPE.FLOAT && one(ATTR.f)) return { name, kind: 'float', value: asFloat(one(ATTR.f)!) };
  if (type === ATTR_TYPE.INTS) return { name, kind: 'ints', value: repeatedInts(fields, ATTR.ints) };
  if (type === ATTR_TYPE.STRING && one(ATTR.s)) return { name, kind: 'string', value: asString(one(ATTR.s)!) };
  return { name, kind: 'raw', fields };
}

function encodeAttribute(a: OnnxAttribute): Uint8Array {
  if (a.kind === 'raw') return encodeMessage(a.fields);
  const fields: WireField[] = [stringField(ATTR.name, a.name)];
  if (a.kind === 'int') fields.push(intField(ATTR.i, a.value), intField(ATTR.type, ATTR_TYPE.INT));
  else if (a.kind === 'float') fields.push(floatField(ATTR.f, a.value), intField(ATTR.type, ATTR_TYPE.FLOAT));
  else if (a.kind === 'string') fields.push(stringField(ATTR.s, a.value), intField(ATTR.type, ATTR_TYPE.STRING));
  else fields.push(...a.value.map((v) => intField(ATTR.ints, v)), intField(ATTR.type, ATTR_TYPE.INTS));
  return encodeMessage(fields);
}

function parseNode(fields: WireField[]): OnnxNode {
  const node: OnnxNode = { name: '', opType: '', domain: '', inputs: [], outputs: [], attributes: [] };
  for (const f of fields) {
    if (f.no === NODE.input) node.inputs.push(asString(f));
    else if (f.no === NODE.output) node.outputs.push(asString(f));
    else if (f.no === NODE.name) node.name = asString(f);
    else if (f.no === NODE.opType) node.opType = asString(f);
    else if (f.no === NODE.domain) node.domain = asString(f);
    else if (f.no === NODE.attribute) node.attributes.push(parseAttribute(decodeMessage(f.value as Uint8Array)));
  }
  return node;
}

function encodeNode(n: OnnxNode): Uint8Array {
  const fields: WireField[] = [
    ...n.inputs.map((s) => stringField(NODE.input, s)),
    ...n.outputs.map((s) => stringField(NODE.output, s)),
    stringField(NODE.name, n.name),
    stringField(NODE.opType, n.opType),
    ...n.attributes.map((a) => bytesField(NODE.attribute, encodeAttribute(a))),
  ];
  if (n.domain) fields.push(stringField(NODE.domain, n.domain));
  return encodeMessage(fields);
}

export function parseOnnxModel(bytes: Uint8Array): OnnxModel {
  const fields = decodeMessage(bytes);
  const graphField = fields.find((f) => f.no === MODEL.graph);
  if (!graphField) throw new Error('onnx: model has no graph');
  const graph: OnnxGraph = { nodes: [], initializers: new Map(), outputs: [], rest: [], outputFields: new Map() };
  for (const f of decodeMessage(graphField.value as Uint8Array)) {
    if (f.no === GRAPH.node) graph.nodes.push(parseNode(decodeMessage(f.value as Uint8Array)));
    else if (f.no === GRAPH.initializer) {
      const t = parseTensor(decodeMessage(f.value as Uint8Array));
      graph.initializers.set(t.name, t);
    } else if (f.no === GRAPH.output) {
      const name = asString(decodeMessage(f.value as Uint8Array).find((g) => g.no === 1)!);
      graph.outputs.push(name);
      graph.outputFields.set(name, f);
    } else graph.rest.push(f);
  }
  return { graph, rest: fields.filter((f) => f.no !== MODEL.graph) };
}

/** A graph output of float tensors with no declared shape (enough for onnxruntime). */
function floatOutputField(name: string): WireField {
  const tensorType = encodeMessage([intField(1, TensorType.FLOAT)]);
  const typeProto = encodeMessage([bytesField(1, tensorType)]);
  return bytesField(GRAPH.output, encodeMessage([stringField(1, name), bytesField(2, typeProto)]));
}

export function encodeOnnxModel(model: OnnxModel): Uint8Array {
  const g = model.graph;
  const graphFields: WireField[] = [
    ...g.nodes.map((n) => bytesField(GRAPH.node, encodeNode(n))),
    ...[...g.initializers.values()].map((t) => bytesField(GRAPH.initializer, encodeTensor(t))),
    ...g.rest,
    ...g.outputs.map((name) => g.outputFields.get(name) ?? floatOutputField(name)),
  ];
  return encodeMessage([...model.rest, bytesField(MODEL.graph, encodeMessage(graphFields))]);
}

export const attributeInts = (n: OnnxNode, name: string): number[] | undefined => {
  const a = n.attributes.find((x) => x.name === name);
  return a?.kind === 'ints' ? a.value : undefined;
};
export const attributeInt = (n: OnnxNode, name: string): number | undefined => {
  const a = n.attributes.find((x) => x.name === name);
  return a?.kind === 'int' ? a.value : undefined;
};
export const attributeFloat = (n: OnnxNode, name: string): number | undefined => {
  const a = n.attributes.find((x) => x.name === name);
  return a?.kind === 'float' ? a.value : undefined;
};

export function floatsOf(t: OnnxTensorData): Float32Array {
  if (t.dataType !== TensorType.FLOAT) throw new Error(`onnx: ${t.name} is not float`);
  return new Float32Array(t.raw.buffer.slice(t.raw.byteOffset, t.raw.byteOffset + t.raw.byteLength));
}
