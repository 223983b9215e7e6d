import { PLACE_KEYS, type Tags } from './extract.ts';
import { OsmFormatError } from './osm-format-error.ts';
import { ProtoReader, readPackedVarints } from './protobuf.ts';

/**
 * One decoded OSMData block (osmformat.proto's PrimitiveBlock), walked element by element through
 * callbacks. Nothing is built per element unless asked: during a callback, `hasPlaceKey()` says
 * whether the element can matter and `tags()` builds its tags.
 */

export interface BlockContents {
  nodes: boolean;
  ways: boolean;
  relations: boolean;
}

export type MemberType = 'node' | 'way' | 'relation';
const MEMBER_TYPES: readonly MemberType[] = ['node', 'way', 'relation'];

// Field numbers from osmformat.proto.
const BLOCK_STRINGTABLE = 1;
const BLOCK_GROUP = 2;
const BLOCK_GRANULARITY = 17;
const BLOCK_LAT_OFFSET = 19;
const BLOCK_LON_OFFSET = 20;
const GROUP_NODE = 1;
const GROUP_DENSE = 2;
const GROUP_WAY = 3;
const GROUP_RELATION = 4;
const GROUP_CHANGESET = 5;

/** Nanodegrees per unit of OSM's fixed point (1e-7 degrees). */
const NANO_PER_FIXED = 100;

type Range = [number, number];

export class PrimitiveBlock {
  private readonly buf: Uint8Array;
  private readonly groups: Range[] = [];
  private stringStarts = new Int32Array(0);
  private stringEnds = new Int32Array(0);
  private stringCount = 0;
  private readonly stringCache: (string | undefined)[] = [];
  /** Per string index: 0 not looked at yet, 1 a key of PLACE_KEYS, 2 not. */
  private placeKeyFlags = new Uint8Array(0);
  private granularity = NANO_PER_FIXED;
  private latOffset = 0;
  private lonOffset = 0;

  // The current element's tags, as string indices.
  private tagKeys = new Int32Array(64);
  private tagVals = new Int32Array(64);
  private tagCount = 0;

  private refs = new Float64Array(1024);
  private memberTypes = new Int32Array(64);
  private memberRoles = new Int32Array(64);

  constructor(buf: Uint8Array) {
    this.buf = buf;
    const reader = new ProtoReader(buf);
    let stringTable: Range | null = null;
    while (!reader.done) {
      const key = reader.varint();
      const field = key >>> 3;
      if (field === BLOCK_STRINGTABLE) stringTable = reader.bytesRange();
      else if (field === BLOCK_GROUP) this.groups.push(reader.bytesRange());
      else if (field === BLOCK_GRANULARITY) this.granularity = reader.varint();
      else if (field === BLOCK_LAT_OFFSET) this.latOffset = reader.varint();
      else if (field === BLOCK_LON_OFFSET) this.lonOffset = reader.varint();
      else reader.skip(key & 7);
    }
    if (stringTable) this.readStringTable(stringTable);
  }

  private readStringTable([start, end]: Range): void {
    const reader = new ProtoReader(this.buf, start, end);
    let starts = new Int32Array(256);
    let ends = new Int32Array(256);
    let count = 0;
    while (!reader.done) {
      const key = reader.varint();
      if (key >>> 3 !== 1) {
        reader.skip(key & 7);
        continue;
      }
      if (count === starts.length) {
        const grownStarts = new Int32Array(count * 2);
        const grownEnds = new Int32Array(count * 2);
        grownStarts.set(starts);
        grownEnds.set(ends);
        starts = grownStarts;
        ends = grownEnds;
      }
      const [s, e] = reader.bytesRange();
      starts[count] = s;
      ends[count] = e;
      count++;
    }
    this.stringStarts = starts;
    this.stringEnds = ends;
    this.stringCount = count;
    this.placeKeyFlags = new Uint8Array(count);
  }

  string(index: number): string {
    const cached = this.stringCache[index];
    if (cached !== undefined) return cached;
    if (index < 0 || index >= this.stringCount) {
      throw new OsmFormatError(`string index ${index} outside the block's string table`);
    }
    const start = this.stringStarts[index] ?? 0;
    const end = this.stringEnds[index] ?? 0;
    const value = Buffer.from(this.buf.buffer, this.buf.byteOffset + start, end - start).toString('utf8');
    this.stringCache[index] = value;
    return value;
  }

  private isPlaceKey(index: number): boolean {
    let flag = this.placeKeyFlags[index];
    if (flag === undefined) throw new OsmFormatError(`string index ${index} outside the block's string table`);
    if (flag === 0) {
      flag = PLACE_KEYS.has(this.string(index)) ? 1 : 2;
      this.placeKeyFlags[index] = flag;
    }
    return flag === 1;
  }

  /** Whether the current element has a tag whose key can make it a place (see PLACE_KEYS). */
  hasPlaceKey(): boolean {
    for (let i = 0; i < this.tagCount; i++) {
      if (this.isPlaceKey(this.tagKeys[i] ?? 0)) return true;
    }
    return false;
  }

  /** The current element's tags. */
  tags(): Tags {
    const tags: Record<string, string> = {};
    for (let i = 0; i < this.tagCount; i++) {
      tags[this.string(this.tagKeys[i] ?? 0)] = this.string(this.tagVals[i] ?? 0);
    }
    return tags;
  }

  contents(): BlockContents {
    const contents = { nodes: false, ways: false, relations: false };
    for (const [start, end] of this.groups) {
      const reader = new ProtoReader(this.buf, start, end);
      while (!reader.done) {
        const key = reader.varint();
        const field = key >>> 3;
        if (field === GROUP_NODE || field === GROUP_DENSE) contents.nodes = true;
        else if (field === GROUP_WAY) contents.ways = true;
        else if (field === GROUP_RELATION) contents.relations = true;
        else if (field === GROUP_CHANGESET) throw new OsmFormatError('changesets in a PBF extract are not supported');
        reader.skip(key & 7);
      }
    }
    return contents;
  }

  private toFixed(raw: number, offset: number): number {
    return Math.round((offset + this.granularity * raw) / NANO_PER_FIXED);
  }

  /** Calls `visit` with each node's id and coordinates in fixed point (1e-7 degrees). */
  forEachNode(visit: (id: number, lat7: number, lng7: number) => void): void {
    this.forEachGroupField(GROUP_NODE, (message) => this.readNode(message, visit));
    this.forEachGroupField(GROUP_DENSE, (message) => this.readDenseNodes(message, visit));
  }

  private readNode(reader: ProtoReader, visit: (id: number, lat7: number, lng7: number) => void): void {
    let id = 0;
    let lat = 0;
    let lng = 0;
    this.tagCount = 0;
    let valCount = 0;
    while (!reader.done) {
      const key = reader.varint();
      switch (key >>> 3) {
        case 1:
          id = reader.svarint();
          break;
        case 2:
          [this.tagKeys, this.tagCount] = readPackedVarints(reader, this.tagKeys);
          break;
        case 3:
          [this.tagVals, valCount] = readPackedVarints(reader, this.tagVals);
          break;
        case 8:
          lat = reader.svarint();
          break;
        case 9:
          lng = reader.svarint();
          break;
        default:
          reader.skip(key & 7);
      }
    }
    if (valCount !== this.tagCount)
      throw new OsmFormatError(`node ${id} has ${this.tagCount} keys but ${valCount} values`);
    visit(id, this.toFixed(lat, this.latOffset), this.toFixed(lng, this.lonOffset));
  }

  private readDenseNodes(reader: ProtoReader, visit: (id: number, lat7: number, lng7: number) => void): void {
    let ids: ProtoReader | null = null;
    let lats: ProtoReader | null = null;
    let lngs: ProtoReader | null = null;
    let keysVals: ProtoReader | null = null;
    while (!reader.done) {
      const key = reader.varint();
      const field = key >>> 3;
      if (field === 1) ids = reader.message();
      else if (field === 8) lats = reader.message();
      else if (field === 9) lngs = reader.message();
      else if (field === 10) keysVals = reader.message();
      else reader.skip(key & 7);
    }
    if (!ids) return;
    if (!lats || !lngs) throw new OsmFormatError('dense nodes without coordinates');
    const plain = this.granularity === NANO_PER_FIXED && this.latOffset === 0 && this.lonOffset === 0;
    let id = 0;
    let lat = 0;
    let lng = 0;
    while (!ids.done) {
      id += ids.svarint();
      lat += lats.svarint();
      lng += lngs.svarint();
      this.tagCount = 0;
      if (keysVals) this.readDenseTags(keysVals);
      if (plain) visit(id, lat, lng);
      else visit(id, this.toFixed(lat, this.latOffset), this.toFixed(lng, this.lonOffset));
    }
    if (!lats.done || !lngs.done) throw new OsmFormatError('dense nodes with more coordinates than ids');
  }

  private readDenseTags(keysVals: ProtoReader): void {
    let count = 0;
    for (;;) {
      const k = keysVals.varint();
      if (k === 0) break;
      if (count === this.tagKeys.length) this.growTags();
      this.tagKeys[count] = k;
      this.tagVals[count] = keysVals.varint();
      count++;
    }
    this.tagCount = count;
  }

  private growTags(): void {
    const keys = new Int32Array(this.tagKeys.length * 2);
    const vals = new Int32Array(this.tagVals.length * 2);
    keys.set(this.tagKeys);
    vals.set(this.tagVals);
    this.tagKeys = keys;
    this.tagVals = vals;
  }

  /** Calls `visit` with each way's id and node ids (`refs[0..count)`, valid during the call only). */
  forEachWay(visit: (id: number, refs: Float64Array, count: number) => void): void {
    this.forEachGroupField(GROUP_WAY, (reader) => {
      let id = 0;
      let refCount = 0;
      let valCount = 0;
      this.tagCount = 0;
      while (!reader.done) {
        const key = reader.varint();
        switch (key >>> 3) {
          case 1:
            id = reader.varint();
            break;
          case 2:
            [this.tagKeys, this.tagCount] = readPackedVarints(reader, this.tagKeys);
            break;
          case 3:
            [this.tagVals, valCount] = readPackedVarints(reader, this.tagVals);
            break;
          case 8:
            refCount = this.readDeltas(reader);
            break;
          default:
            reader.skip(key & 7);
        }
      }
      if (valCount !== this.tagCount)
        throw new OsmFormatError(`way ${id} has ${this.tagCount} keys but ${valCount} values`);
      visit(id, this.refs, refCount);
    });
  }

  /** Calls `visit` with each relation's id and members (arrays valid during the call only). */
  forEachRelation(
    visit: (
      id: number,
      count: number,
      memberId: (i: number) => number,
      memberType: (i: number) => MemberType,
      role: (i: number) => string,
    ) => void,
  ): void {
    const memberId = (i: number) => this.refs[i] ?? 0;
    const memberType = (i: number): MemberType => {
      const type = MEMBER_TYPES[this.memberTypes[i] ?? -1];
      if (!type) throw new OsmFormatError(`relation member of unknown type ${this.memberTypes[i]}`);
      return type;
    };
    const role = (i: number) => this.string(this.memberRoles[i] ?? 0);
    this.forEachGroupField(GROUP_RELATION, (reader) => {
      let id = 0;
      let valCount = 0;
      let idCount = 0;
      let typeCount = 0;
      let roleCount = 0;
      this.tagCount = 0;
      while (!reader.done) {
        const key = reader.varint();
        switch (key >>> 3) {
          case 1:
            id = reader.varint();
            break;
          case 2:
            [this.tagKeys, this.tagCount] = readPackedVarints(reader, this.tagKeys);
            break;
          case 3:
            [this.tagVals, valCount] = readPackedVarints(reader, this.tagVals);
            break;
          case 8:
            [this.memberRoles, roleCount] = readPackedVarints(reader, this.memberRoles);
            break;
          case 9:
            idCount = this.readDeltas(reader);
            break;
          case 10:
            [this.memberTypes, typeCount] = readPackedVarints(reader, this.memberTypes);
            break;
          default:
            reader.skip(key & 7);
        }
      }
      if (valCount !== this.tagCount || idCount !== typeCount || idCount !== roleCount) {
        throw new OsmFormatError(`relation ${id} has arrays of different lengths`);
      }
      visit(id, idCount, memberId, memberType, role);
    });
  }

  /** Reads a packed array of delta-coded sint64 ids into `this.refs`; returns the count. */
  private readDeltas(reader: ProtoReader): number {
    const field = reader.message();
    let count = 0;
    let value = 0;
    while (!field.done) {
      if (count === this.refs.length) {
        const grown = new Float64Array(count * 2);
        grown.set(this.refs);
        this.refs = grown;
      }
      value += field.svarint();
      this.refs[count++] = value;
    }
    return count;
  }

  private forEachGroupField(wanted: number, read: (message: ProtoReader) => void): void {
    for (const [start, end] of this.groups) {
      const reader = new ProtoReader(this.buf, start, end);
      while (!reader.done) {
        const key = reader.varint();
        if (key >>> 3 === wanted) read(reader.message());
        else reader.skip(key & 7);
      }
    }
  }
}
