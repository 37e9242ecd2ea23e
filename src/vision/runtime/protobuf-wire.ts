/**
 * The protobuf wire format, just enough to read and rewrite an ONNX model without a schema
 * compiler: a message is a list of fields, each a varint, a fixed 32/64-bit value or a
 * length-delimited byte run (a string, a packed array or a nested message). Fields this code
 * does not understand are carried through byte for byte.
 */

export const enum Wire {
  Varint = 0,
  Fixed64 = 1,
  Bytes = 2,
  Fixed32 = 5,
}

export type WireField =
  | { no: number; wire: Wire.Varint; value: bigint }
  | { no: number; wire: Wire.Fixed64 | Wire.Fixed32 | Wire.Bytes; value: Uint8Array };

export function decodeMessage(buf: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (pos >= buf.length) throw new Error('protobuf: truncated varint');
      const b = buf[pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return result;
      shift += 7n;
      if (shift > 63n) throw new Error('protobuf: varint too long');
    }
  };
  const take = (n: number): Uint8Array => {
    if (pos + n > buf.length) throw new Error('protobuf: truncated field');
    const out = buf.subarray(pos, pos + n);
    pos += n;
    return out;
  };
  while (pos < buf.length) {
    const key = Number(varint());
    const no = key >>> 3;
    const wire = key & 7;
    if (wire === Wire.Varint) fields.push({ no, wire, value: varint() });
    else if (wire === Wire.Fixed64) fields.push({ no, wire, value: take(8) });
    else if (wire === Wire.Fixed32) fields.push({ no, wire, value: take(4) });
    else if (wire === Wire.Bytes) fields.push({ no, wire, value: take(Number(varint())) });
    else throw new Error(`protobuf: unsupported wire type ${wire}`);
  }
  return fields;
}

function varintBytes(v: bigint): number[] {
  let u = BigInt.asUintN(64, v);
  const out: number[] = [];
  while (u >= 0x80n) {
    out.push(Number(u & 0x7fn) | 0x80);
    u >>= 7n;
  }
  out.push(Number(u));
  return out;
}

export function encodeMessage(fields: readonly WireField[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  const push = (p: Uint8Array) => {
    parts.push(p);
    size += p.length;
  };
  for (const f of fields) {
    push(Uint8Array.from(varintBytes(BigInt((f.no << 3) | f.wire))));
    if (f.wire === Wire.Varint) push(Uint8Array.from(varintBytes(f.value)));
    else {
      if (f.wire === Wire.Bytes) push(Uint8Array.from(varintBytes(BigInt(f.value.length))));
      push(f.value);
    }
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

export const stringField = (no: number, s: string): WireField => ({ no, wire: Wire.Bytes, value: utf8.encode(s) });
export const bytesField = (no: number, value: Uint8Array): WireField => ({ no, wire: Wire.Bytes, value });
export const intField = (no: number, v: number | bigint): WireField => ({ no, wire: Wire.Varint, value: BigInt(v) });
export const floatField = (no: number, v: number): WireField => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, v, true);
  return { no, wire: Wire.Fixed32, value: b };
};

export const asString = (f: WireField): string => fromUtf8.decode(f.value as Uint8Array);
export const asInt = (f: WireField): number => Number(BigInt.asIntN(64, f.value as bigint));
export const asFloat = (f: WireField): number => {
  const b = f.value as Uint8Array;
  return new DataView(b.buffer, b.byteOffset, 4).getFloat32(0, true);
};

/** A repeated int64 field, whether written packed or one value per field. */
export function repeatedInts(fields: readonly WireField[], no: number): number[] {
  const out: number[] = [];
  for (const f of fields) {
    if (f.no !== no) continue;
    if (f.wire === Wire.Varint) out.push(asInt(f));
    else if (f.wire === Wire.Bytes) for (const p of decodePackedVarints(f.value)) out.push(p);
  }
  return out;
}

function decodePackedVarints(buf: Uint8Array): number[] {
  const out: number[] = [];
  let pos = 0;
  while (pos < buf.length) {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) break;
      shift += 7n;
    }
    out.push(Number(BigInt.asIntN(64, result)));
  }
  return out;
}

export const packedIntsField = (no: number, values: readonly number[]): WireField =>
  bytesField(no, Uint8Array.from(values.flatMap((v) => varintBytes(BigInt(v)))));
