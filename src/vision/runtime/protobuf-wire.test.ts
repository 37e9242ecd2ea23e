import { describe, expect, it } from 'vitest';
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
} from './protobuf-wire.js';

describe('protobuf wire format', () => {
  it('round-trips varints (negative int64 too), floats, strings and nested messages', () => {
    const nested = encodeMessage([stringField(1, 'conv'), intField(2, 300)]);
    const bytes = encodeMessage([intField(1, -1), intField(2, 2 ** 40), floatField(3, 0.5), stringField(4, 'héllo'), bytesField(5, nested)]);
    const fields = decodeMessage(bytes);
    expect(fields.map((f) => f.no)).toEqual([1, 2, 3, 4, 5]);
    expect(asInt(fields[0]!)).toBe(-1);
    expect(asInt(fields[1]!)).toBe(2 ** 40);
    expect(asFloat(fields[2]!)).toBe(0.5);
    expect(asString(fields[3]!)).toBe('héllo');
    const inner = decodeMessage(fields[4]!.value as Uint8Array);
    expect(asString(inner[0]!)).toBe('conv');
    expect(asInt(inner[1]!)).toBe(300);
  });

  it('reads repeated ints whether packed or one per field', () => {
    const fields = decodeMessage(encodeMessage([packedIntsField(1, [1, -2, 300]), intField(1, 7), intField(2, 9)]));
    expect(repeatedInts(fields, 1)).toEqual([1, -2, 300, 7]);
  });

  it('re-encodes what it decoded byte for byte, unknown fields included', () => {
    const original = encodeMessage([intField(99, 5), { no: 7, wire: Wire.Fixed64, value: new Uint8Array(8).fill(3) }, stringField(2, 'x')]);
    expect(encodeMessage(decodeMessage(original))).toEqual(original);
  });

  it('rejects truncated input instead of reading past the end', () => {
    const bytes = encodeMessage([stringField(1, 'abcdef')]);
    expect(() => decodeMessage(bytes.subarray(0, bytes.length - 2))).toThrow(/truncated/);
  });
});
