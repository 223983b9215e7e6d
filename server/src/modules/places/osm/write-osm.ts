import { closeSync, openSync, writeSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { ProtoWriter } from './protobuf.ts';

/**
 * Writes small OpenStreetMap extracts (.osm XML and .osm.pbf) for tests, and big synthetic ones
 * for benchmarks through OsmPbfWriter, which streams: it holds one block of elements at a time.
 */

export type OsmTags = Readonly<Record<string, string>>;

export interface OsmNode {
  id: number;
  lat: number;
  lng: number;
  tags?: OsmTags;
}

export interface OsmWay {
  id: number;
  refs: readonly number[];
  tags?: OsmTags;
}

export interface OsmRelationMember {
  type: 'node' | 'way' | 'relation';
  ref: number;
  role?: string;
}

export interface OsmRelation {
  id: number;
  members: readonly OsmRelationMember[];
  tags?: OsmTags;
}

export interface OsmData {
  nodes: readonly OsmNode[];
  ways: readonly OsmWay[];
  relations?: readonly OsmRelation[];
}

const FIXED_POINT = 1e7;

export function writeOsmXml(file: string, data: OsmData): void {
  const out = new SyncFile(file);
  try {
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="csomagkuldo">\n');
    for (const node of data.nodes) {
      const attributes = `id="${node.id}" lat="${node.lat.toFixed(7)}" lon="${node.lng.toFixed(7)}"`;
      out.write(xmlElement('node', attributes, xmlTags(node.tags)));
    }
    for (const way of data.ways) {
      const refs = way.refs.map((ref) => `    <nd ref="${ref}"/>\n`).join('');
      out.write(xmlElement('way', `id="${way.id}"`, refs + xmlTags(way.tags)));
    }
    for (const relation of data.relations ?? []) {
      const members = relation.members
        .map((m) => `    <member type="${m.type}" ref="${m.ref}" role="${escapeXml(m.role ?? '')}"/>\n`)
        .join('');
      out.write(xmlElement('relation', `id="${relation.id}"`, members + xmlTags(relation.tags)));
    }
    out.write('</osm>\n');
  } finally {
    out.close();
  }
}

function xmlElement(name: string, attributes: string, children: string): string {
  return children === '' ? `  <${name} ${attributes}/>\n` : `  <${name} ${attributes}>\n${children}  </${name}>\n`;
}

function xmlTags(tags: OsmTags | undefined): string {
  let out = '';
  for (const [k, v] of Object.entries(tags ?? {})) out += `    <tag k="${escapeXml(k)}" v="${escapeXml(v)}"/>\n`;
  return out;
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\n': '&#10;',
  '\r': '&#13;',
  '\t': '&#9;',
};

function escapeXml(value: string): string {
  return value.replace(/[&<>"'\n\r\t]/g, (c) => XML_ESCAPES[c] ?? c);
}

export interface PbfWriterOptions {
  /** Elements per block; real extracts use 8,000. */
  blockSize?: number;
  /** zlib-compress blocks (true), or store them raw. */
  compress?: boolean;
}

export function writeOsmPbf(file: string, data: OsmData, options: PbfWriterOptions = {}): void {
  const writer = new OsmPbfWriter(file, options);
  try {
    for (const node of data.nodes) writer.node(node);
    for (const way of data.ways) writer.way(way);
    for (const relation of data.relations ?? []) writer.relation(relation);
  } finally {
    writer.close();
  }
}

type ElementKind = 'node' | 'way' | 'relation';

const MEMBER_TYPE_CODES = { node: 0, way: 1, relation: 2 } as const;

/**
 * Streams an .osm.pbf file: elements are written in the order given, a block at a time
 * (a change of element kind starts a new block), so a test can also put ways before their nodes.
 */
export class OsmPbfWriter {
  private readonly out: SyncFile;
  private readonly blockSize: number;
  private readonly compress: boolean;
  // The block being filled: elements of one kind.
  private nodes: OsmNode[] = [];
  private ways: OsmWay[] = [];
  private relations: OsmRelation[] = [];
  private pendingKind: ElementKind | null = null;
  private pendingCount = 0;
  private closed = false;
  readonly counts = { nodes: 0, ways: 0, relations: 0, blocks: 0 };

  constructor(file: string, options: PbfWriterOptions = {}) {
    this.blockSize = options.blockSize ?? 8000;
    this.compress = options.compress ?? true;
    this.out = new SyncFile(file);
    const header = new ProtoWriter()
      .stringField(4, 'OsmSchema-V0.6')
      .stringField(4, 'DenseNodes')
      .stringField(16, 'csomagkuldo')
      .finish();
    this.writeBlob('OSMHeader', header);
  }

  /** Bytes written so far. */
  get bytes(): number {
    return this.out.bytes;
  }

  node(node: OsmNode): void {
    this.makeRoom('node');
    this.nodes.push(node);
    this.counts.nodes++;
  }

  way(way: OsmWay): void {
    this.makeRoom('way');
    this.ways.push(way);
    this.counts.ways++;
  }

  relation(relation: OsmRelation): void {
    this.makeRoom('relation');
    this.relations.push(relation);
    this.counts.relations++;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.flush();
    } finally {
      this.out.close();
    }
  }

  private makeRoom(kind: ElementKind): void {
    if (this.closed) throw new Error('the PBF writer is closed');
    if (this.pendingKind !== kind || this.pendingCount >= this.blockSize) this.flush();
    this.pendingKind = kind;
    this.pendingCount++;
  }

  private flush(): void {
    if (this.pendingCount === 0) return;
    const strings = new StringTable();
    const group = new ProtoWriter(64 * 1024);
    if (this.nodes.length > 0) group.messageField(2, (dense) => writeDenseNodes(dense, this.nodes, strings));
    for (const way of this.ways) group.messageField(3, (message) => writeWay(message, way, strings));
    for (const relation of this.relations)
      group.messageField(4, (message) => writeRelation(message, relation, strings));
    this.nodes = [];
    this.ways = [];
    this.relations = [];
    this.pendingKind = null;
    this.pendingCount = 0;
    const block = new ProtoWriter(group.length + 64 * 1024);
    block.messageField(1, (table) => {
      for (const s of strings.list) table.bytesField(1, Buffer.from(s, 'utf8'));
    });
    block.bytesField(2, group.finish());
    this.writeBlob('OSMData', block.finish());
    this.counts.blocks++;
  }

  private writeBlob(type: string, data: Buffer): void {
    const blob = new ProtoWriter(data.length + 64);
    if (this.compress) blob.varintField(2, data.length).bytesField(3, deflateSync(data));
    else blob.bytesField(1, data);
    const blobBytes = blob.finish();
    const header = new ProtoWriter(64).stringField(1, type).varintField(3, blobBytes.length).finish();
    const length = Buffer.alloc(4);
    length.writeUInt32BE(header.length, 0);
    this.out.write(length);
    this.out.write(header);
    this.out.write(blobBytes);
  }
}

class StringTable {
  readonly list: string[] = [''];
  private readonly index = new Map<string, number>([['', 0]]);

  of(value: string): number {
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(value);
      this.index.set(value, i);
    }
    return i;
  }
}

function writeDenseNodes(dense: ProtoWriter, nodes: readonly OsmNode[], strings: StringTable): void {
  const keysVals: number[] = [];
  let tagged = false;
  for (const node of nodes) {
    for (const [k, v] of Object.entries(node.tags ?? {})) {
      keysVals.push(strings.of(k), strings.of(v));
      tagged = true;
    }
    keysVals.push(0);
  }
  dense.packedDeltaField(
    1,
    nodes.map((n) => n.id),
  );
  dense.packedDeltaField(
    8,
    nodes.map((n) => Math.round(n.lat * FIXED_POINT)),
  );
  dense.packedDeltaField(
    9,
    nodes.map((n) => Math.round(n.lng * FIXED_POINT)),
  );
  if (tagged) dense.packedVarintField(10, keysVals);
}

function writeTags(message: ProtoWriter, tags: OsmTags | undefined, strings: StringTable): void {
  const entries = Object.entries(tags ?? {});
  message.packedVarintField(
    2,
    entries.map(([k]) => strings.of(k)),
  );
  message.packedVarintField(
    3,
    entries.map(([, v]) => strings.of(v)),
  );
}

function writeWay(message: ProtoWriter, way: OsmWay, strings: StringTable): void {
  message.varintField(1, way.id);
  writeTags(message, way.tags, strings);
  message.packedDeltaField(8, way.refs);
}

function writeRelation(message: ProtoWriter, relation: OsmRelation, strings: StringTable): void {
  message.varintField(1, relation.id);
  writeTags(message, relation.tags, strings);
  const members = relation.members;
  message.packedVarintField(
    8,
    members.map((m) => strings.of(m.role ?? '')),
  );
  message.packedDeltaField(
    9,
    members.map((m) => m.ref),
  );
  message.packedVarintField(
    10,
    members.map((m) => MEMBER_TYPE_CODES[m.type]),
  );
}

/** A file written with blocking writes: simple, and the writer holds only the current block. */
class SyncFile {
  private readonly fd: number;
  bytes = 0;

  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }

  write(data: string | Uint8Array): void {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let at = 0;
    while (at < bytes.length) at += writeSync(this.fd, bytes, at, bytes.length - at);
    this.bytes += bytes.length;
  }

  close(): void {
    closeSync(this.fd);
  }
}
