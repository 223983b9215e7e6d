import { OsmFormatError } from './osm-format-error.ts';

/**
 * The little of Protocol Buffers that OSM PBF needs, read and written by hand: the reader walks a
 * block's packed arrays without building an object per node (a Hungary extract has ~35 M nodes).
 * Integers are JavaScript numbers: OSM ids and coordinates stay far below 2^53.
 */

export enum WireType {
  Varint = 0,
  Fixed64 = 1,
  Bytes = 2,
  Fixed32 = 5,
}

const TWO_32 = 4294967296;

export class ProtoReader {
  pos: number;

  constructor(
    readonly buf: Uint8Array,
    start = 0,
    public end = buf.length,
  ) {
    if (end > buf.length) throw new OsmFormatError('protobuf message runs past the end of its block');
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** An unsigned varint; values of 2^32 and more take the slow path. */
  varint(): number {
    const buf = this.buf;
    let pos = this.pos;
    if (pos >= this.end) throw new OsmFormatError('protobuf varint runs past the end of its message');
    let b = buf[pos++] as number;
    let value = b & 0x7f;
    if (b < 0x80) {
      this.pos = pos;
      return value;
    }
    for (let shift = 7; shift < 28; shift += 7) {
      if (pos >= this.end) throw new OsmFormatError('protobuf varint runs past the end of its message');
      b = buf[pos++] as number;
      value |= (b & 0x7f) << shift;
      if (b < 0x80) {
        this.pos = pos;
        return value;
      }
    }
    this.pos = pos;
    return this.varintRemainder(value);
  }

  /** Bytes 5–10 of a varint whose low 28 bits are `low28`; a 10-byte varint is a negative int64. */
  private varintRemainder(low28: number): number {
    let b = this.byte();
    const low = (low28 | ((b & 0x0f) << 28)) >>> 0;
    let high = (b & 0x70) >> 4;
    for (let shift = 3; b >= 0x80; shift += 7) {
      if (shift > 31) throw new OsmFormatError('protobuf varint longer than 10 bytes');
      b = this.byte();
      high |= (b & 0x7f) << shift;
    }
    high >>>= 0;
    if (high & 0x80000000) return -((~high >>> 0) * TWO_32 + (~low >>> 0) + 1);
    return high * TWO_32 + low;
  }

  private byte(): number {
    if (this.pos >= this.end) throw new OsmFormatError('protobuf varint runs past the end of its message');
    return this.buf[this.pos++] as number;
  }

  /** A zigzag-encoded signed varint (sint32, sint64). */
  svarint(): number {
    const n = this.varint();
    return n % 2 === 1 ? (n + 1) / -2 : n / 2;
  }

  /** The [start, end) of a length-delimited field's bytes; the reader moves past them. */
  bytesRange(): [number, number] {
    const length = this.varint();
    const start = this.pos;
    const end = start + length;
    if (end > this.end) throw new OsmFormatError('protobuf field runs past the end of its message');
    this.pos = end;
    return [start, end];
  }

  bytes(): Uint8Array {
    const [start, end] = this.bytesRange();
    return this.buf.subarray(start, end);
  }

  string(): string {
    const [start, end] = this.bytesRange();
    return Buffer.from(this.buf.buffer, this.buf.byteOffset + start, end - start).toString('utf8');
  }

  /** A reader over the length-delimited field that follows. */
  message(): ProtoReader {
    const [start, end] = this.bytesRange();
    return new ProtoReader(this.buf, start, end);
  }

  skip(wireType: number): void {
    switch (wireType) {
      case WireType.Varint:
        this.varint();
        return;
      case WireType.Fixed64:
        this.pos += 8;
        break;
      case WireType.Bytes:
        this.bytesRange();
        return;
      case WireType.Fixed32:
        this.pos += 4;
        break;
      default:
        throw new OsmFormatError(`protobuf wire type ${wireType} is not valid here`);
    }
    if (this.pos > this.end) throw new OsmFormatError('protobuf field runs past the end of its message');
  }
}

/** Reads a packed array of (u)int32 varints into `into`, growing it if needed; returns it and the count. */
export function readPackedVarints(
  reader: ProtoReader,
  into: Int32Array<ArrayBuffer>,
): [Int32Array<ArrayBuffer>, number] {
  const field = reader.message();
  let out = into;
  let count = 0;
  while (!field.done) {
    if (count === out.length) {
      const grown = new Int32Array(out.length * 2 || 64);
      grown.set(out);
      out = grown;
    }
    out[count++] = field.varint();
  }
  return [out, count];
}

export class ProtoWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(initialSize = 1024) {
    this.buf = Buffer.allocUnsafe(initialSize);
  }

  get length(): number {
    return this.pos;
  }

  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  private ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + extra) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  /** A non-negative integer, or a negative one as the 10-byte two's complement of int64. */
  varint(value: number): this {
    this.ensure(10);
    let n = value;
    if (n < 0) {
      // Two's complement over 64 bits, split in halves that stay exact.
      const magnitude = -n;
      let low = ~(magnitude % TWO_32) >>> 0;
      let high = ~Math.floor(magnitude / TWO_32) >>> 0;
      low = (low + 1) >>> 0;
      if (low === 0) high = (high + 1) >>> 0;
      for (let i = 0; i < 4; i++) {
        this.buf[this.pos++] = (low & 0x7f) | 0x80;
        low >>>= 7;
      }
      this.buf[this.pos++] = (low & 0x0f) | ((high & 0x07) << 4) | 0x80;
      high >>>= 3;
      for (let i = 0; i < 4; i++) {
        this.buf[this.pos++] = (high & 0x7f) | 0x80;
        high >>>= 7;
      }
      this.buf[this.pos++] = high & 0x01;
      return this;
    }
    while (n >= 0x80) {
      this.buf[this.pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.pos++] = n;
    return this;
  }

  svarint(value: number): this {
    return this.varint(value < 0 ? -2 * value - 1 : 2 * value);
  }

  tag(field: number, wireType: WireType): this {
    return this.varint(field * 8 + wireType);
  }

  varintField(field: number, value: number): this {
    return this.tag(field, WireType.Varint).varint(value);
  }

  svarintField(field: number, value: number): this {
    return this.tag(field, WireType.Varint).svarint(value);
  }

  bytesField(field: number, bytes: Uint8Array): this {
    this.tag(field, WireType.Bytes).varint(bytes.length);
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
    return this;
  }

  stringField(field: number, value: string): this {
    return this.bytesField(field, Buffer.from(value, 'utf8'));
  }

  messageField(field: number, write: (message: ProtoWriter) => void): this {
    const message = new ProtoWriter(256);
    write(message);
    return this.bytesField(field, message.finish());
  }

  packedVarintField(field: number, values: ArrayLike<number>): this {
    if (values.length === 0) return this;
    return this.messageField(field, (packed) => {
      for (let i = 0; i < values.length; i++) packed.varint(values[i] ?? 0);
    });
  }

  /** Zigzag signed varints of the differences between consecutive values (OSM's delta coding). */
  packedDeltaField(field: number, values: ArrayLike<number>): this {
    if (values.length === 0) return this;
    return this.messageField(field, (packed) => {
      let previous = 0;
      for (let i = 0; i < values.length; i++) {
        const value = values[i] ?? 0;
        packed.svarint(value - previous);
        previous = value;
      }
    });
  }
}
