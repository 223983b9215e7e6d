import { describe, expect, it } from 'vitest';
import { OsmFormatError } from './osm-format-error.ts';
import { ProtoReader, ProtoWriter } from './protobuf.ts';

describe('protobuf varints', () => {
  const values = [0, 1, 127, 128, 300, 2 ** 28 - 1, 2 ** 28, 2 ** 31, 2 ** 32 + 5, 13_000_000_000, 2 ** 52 - 1];

  it('read back what was written, signed and unsigned, negative int64 included', () => {
    const writer = new ProtoWriter(4);
    for (const v of values)
      writer
        .varint(v)
        .svarint(v)
        .svarint(-v)
        .varint(-v - 1);
    const reader = new ProtoReader(writer.finish());
    for (const v of values) {
      expect([reader.varint(), reader.svarint(), reader.svarint(), reader.varint()]).toEqual([v, v, 0 - v, -v - 1]);
    }
    expect(reader.done).toBe(true);
  });

  it('refuse a varint that runs past the end', () => {
    const bytes = new ProtoWriter().varint(2 ** 40).finish();
    expect(() => new ProtoReader(bytes, 0, bytes.length - 1).varint()).toThrow(OsmFormatError);
  });
});
