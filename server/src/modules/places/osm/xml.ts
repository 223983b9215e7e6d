import { createReadStream } from 'node:fs';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import {
  FIXED_POINT,
  type Geometry,
  interpolatedAddresses,
  interpolationStep,
  isOutlineMember,
  type OutlineSum,
  type PlaceRecord,
  placesAt,
  placesOfRelation,
  placesOfWay,
  relationNeedsOutline,
  sumOutline,
  type Tags,
  wayNeedsGeometry,
} from './extract.ts';
import { OsmFormatError } from './osm-format-error.ts';
import type { ProgressListener } from './read-osm.ts';

/**
 * The places of an .osm XML file, streamed through saxes. XML extracts are small (tests, a town
 * cut out by hand), so one pass keeps every node's coordinates in a Map and resolves the ways at
 * the end, whatever order the elements come in.
 */

interface Element {
  type: 'node' | 'way' | 'relation';
  id: number;
  lat7: number;
  lng7: number;
  tags: Record<string, string>;
  refs: number[];
  members: { type: 'node' | 'way' | 'relation'; ref: number; role: string }[];
  deleted: boolean;
}

interface Document {
  nodes: Map<number, [number, number]>;
  /** Tags of numbered nodes, for interpolation lines. */
  numberedNodes: Map<number, Tags>;
  wayRefs: Map<number, number[]>;
  wantedWays: { tags: Tags; refs: number[] }[];
  wantedRelations: { tags: Tags; outerWays: number[] }[];
}

export async function* readXmlPlaces(file: string, onProgress?: ProgressListener): AsyncGenerator<PlaceRecord[]> {
  const doc: Document = {
    nodes: new Map(),
    numberedNodes: new Map(),
    wayRefs: new Map(),
    wantedWays: [],
    wantedRelations: [],
  };
  let out: PlaceRecord[] = [];
  let current: Element | null = null;
  let rootSeen = false;
  let elements = 0;

  const parser = new SaxesParser();
  parser.on('opentag', (tag: SaxesTagPlain) => {
    if (!rootSeen) {
      if (tag.name !== 'osm') throw new OsmFormatError(`not an OSM XML file: the root element is <${tag.name}>`);
      rootSeen = true;
      return;
    }
    const attributes: Readonly<Record<string, string | undefined>> = tag.attributes;
    switch (tag.name) {
      case 'node':
      case 'way':
      case 'relation':
        current = startElement(tag.name, attributes);
        break;
      case 'tag':
        if (current && attributes.k !== undefined) current.tags[attributes.k] = attributes.v ?? '';
        break;
      case 'nd':
        current?.refs.push(integer(attributes.ref, 'nd ref'));
        break;
      case 'member': {
        const type = attributes.type;
        if (current && (type === 'node' || type === 'way' || type === 'relation')) {
          current.members.push({ type, ref: integer(attributes.ref, 'member ref'), role: attributes.role ?? '' });
        }
        break;
      }
    }
  });
  parser.on('closetag', (tag: SaxesTagPlain) => {
    if (current && tag.name === current.type) {
      elements++;
      if (!current.deleted) endElement(current, doc, out);
      current = null;
    }
  });

  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  try {
    let first = true;
    for await (const chunk of stream as AsyncIterable<string>) {
      parse(parser, first ? chunk.replace(/^\uFEFF/, '') : chunk);
      first = false;
      onProgress?.('xml', elements);
      if (out.length >= 10_000) {
        yield out;
        out = [];
      }
    }
    parse(parser, null);
  } finally {
    stream.destroy();
  }
  if (!rootSeen) throw new OsmFormatError('not an OSM XML file: no <osm> element');

  resolveWays(doc, out);
  onProgress?.('ways', doc.wantedWays.length);
  if (out.length > 0) yield out;
}

function parse(parser: SaxesParser, chunk: string | null): void {
  try {
    if (chunk === null) parser.close();
    else parser.write(chunk);
  } catch (error) {
    if (error instanceof OsmFormatError) throw error;
    throw new OsmFormatError(`XML is not well-formed: ${(error as Error).message}`);
  }
}

function integer(value: string | undefined, what: string): number {
  const n = Number(value);
  if (value === undefined || value === '' || !Number.isSafeInteger(n)) {
    throw new OsmFormatError(`OSM XML ${what} '${value}' is not an integer`);
  }
  return n;
}

function coordinate(value: string | undefined, what: string): number {
  const n = Number(value);
  if (value === undefined || value === '' || !Number.isFinite(n)) {
    throw new OsmFormatError(`OSM XML ${what} '${value}' is not a number`);
  }
  return Math.round(n * FIXED_POINT);
}

function startElement(type: Element['type'], attributes: Readonly<Record<string, string | undefined>>): Element {
  const isNode = type === 'node';
  const deleted = attributes.visible === 'false' || attributes.action === 'delete';
  return {
    type,
    id: integer(attributes.id, `${type} id`),
    // A deleted node (JOSM files) may have no coordinates.
    lat7: isNode && !deleted ? coordinate(attributes.lat, 'node lat') : 0,
    lng7: isNode && !deleted ? coordinate(attributes.lon, 'node lon') : 0,
    tags: {},
    refs: [],
    members: [],
    deleted,
  };
}

function endElement(element: Element, doc: Document, out: PlaceRecord[]): void {
  const { tags } = element;
  switch (element.type) {
    case 'node':
      doc.nodes.set(element.id, [element.lat7, element.lng7]);
      placesAt(tags, element.lat7, element.lng7, out);
      if (tags['addr:housenumber'] !== undefined) doc.numberedNodes.set(element.id, tags);
      break;
    case 'way':
      doc.wayRefs.set(element.id, element.refs);
      if (wayNeedsGeometry(tags)) doc.wantedWays.push({ tags, refs: element.refs });
      break;
    case 'relation':
      if (relationNeedsOutline(tags)) {
        const outerWays = element.members.filter((m) => isOutlineMember(m.type, m.role)).map((m) => m.ref);
        doc.wantedRelations.push({ tags, outerWays });
      }
      break;
  }
}

function resolveWays(doc: Document, out: PlaceRecord[]): void {
  const geometryOf = (refs: readonly number[]): Geometry & { ids: number[] } => {
    const lats: number[] = [];
    const lngs: number[] = [];
    const ids: number[] = [];
    for (const ref of refs) {
      const node = doc.nodes.get(ref);
      // A node missing from the extract (cut at its border) is left out.
      if (!node) continue;
      lats.push(node[0]);
      lngs.push(node[1]);
      ids.push(ref);
    }
    return { lats, lngs, count: ids.length, ids };
  };
  for (const way of doc.wantedWays) {
    const geometry = geometryOf(way.refs);
    placesOfWay(way.tags, geometry, out);
    if (interpolationStep(way.tags) !== null) {
      interpolatedAddresses(way.tags, geometry, (index) => doc.numberedNodes.get(geometry.ids[index] ?? 0), out);
    }
  }
  const outlines = new Map<number, OutlineSum>();
  for (const relation of doc.wantedRelations) {
    for (const id of relation.outerWays) {
      const refs = doc.wayRefs.get(id);
      if (refs && !outlines.has(id)) outlines.set(id, sumOutline(geometryOf(refs)));
    }
    placesOfRelation(
      relation.tags,
      relation.outerWays.map((id) => outlines.get(id)),
      out,
    );
  }
}
