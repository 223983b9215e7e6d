import { type FileHandle, open } from 'node:fs/promises';
import {
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
import { type NodeCoordinates, NodeIdCollector } from './node-coordinates.ts';
import { OsmFormatError } from './osm-format-error.ts';
import { PrimitiveBlock } from './pbf-block.ts';
import { type BlobLocation, checkHeaderBlock, readBlobs, scanBlobs } from './pbf-file.ts';
import type { ProgressListener } from './read-osm.ts';

interface WantedRelation {
  tags: Tags;
  outerWays: number[];
}

/** What the first pass learns about the file for the others. */
interface FileIndex {
  nodeBlobs: BlobLocation[];
  wayBlobs: BlobLocation[];
  neededNodes: NodeIdCollector;
  /** Nodes of interpolation lines: their tags carry the house numbers. */
  interpolationNodes: Set<number>;
  outerWays: Set<number>;
  relations: WantedRelation[];
}

/**
 * The places of an .osm.pbf file, block by block. Ways need their nodes' coordinates, and keeping
 * every node's would take ~560 MB for Hungary, so the file is read in passes:
 *  1. every block: node places are emitted; the node ids of wanted ways, and the outer ways of
 *     wanted multipolygons, are collected (and where each kind of element sits is noted);
 *  1b. only when multipolygons want them: the way blocks again, for those outer ways' node ids;
 *  2. the node blocks: coordinates of the needed nodes (and tags of interpolation lines' nodes);
 *  3. the way blocks: ways are resolved and emitted, then the multipolygons.
 * Element order does not matter: a way whose nodes come after it resolves like any other.
 */
export async function* readPbfPlaces(file: string, onProgress?: ProgressListener): AsyncGenerator<PlaceRecord[]> {
  const handle = await open(file, 'r');
  try {
    const blobs = await checkedDataBlobs(handle);
    const progress = new Progress(onProgress);
    const index = yield* scan(handle, blobs, progress);
    if (index.outerWays.size > 0) await collectOuterWayNodes(handle, index);
    const { coordinates, interpolationTags } = await readNeededNodes(handle, index, progress);
    yield* resolveWays(handle, index, coordinates, interpolationTags, progress);
  } catch (error) {
    // A corrupt count can ask a typed array for an impossible length.
    if (error instanceof RangeError) throw new OsmFormatError(`corrupt PBF data: ${error.message}`);
    throw error;
  } finally {
    await handle.close();
  }
}

/** The OSMData blobs, once the whole layout and the header's required features are checked. */
async function checkedDataBlobs(handle: FileHandle): Promise<BlobLocation[]> {
  const { size } = await handle.stat();
  const [header, ...rest] = await scanBlobs(handle, size);
  for await (const { data } of readBlobs(handle, [header as BlobLocation])) checkHeaderBlock(data);
  return rest.filter((blob) => blob.type === 'OSMData');
}

/** Pass 1: yields the nodes' places, returns what the other passes need. */
async function* scan(
  handle: FileHandle,
  blobs: readonly BlobLocation[],
  progress: Progress,
): AsyncGenerator<PlaceRecord[], FileIndex> {
  const index: FileIndex = {
    nodeBlobs: [],
    wayBlobs: [],
    neededNodes: new NodeIdCollector(),
    interpolationNodes: new Set(),
    outerWays: new Set(),
    relations: [],
  };
  let elements = 0;
  for await (const { blob, data } of readBlobs(handle, blobs)) {
    const block = new PrimitiveBlock(data);
    const contents = block.contents();
    const out: PlaceRecord[] = [];
    if (contents.nodes) {
      index.nodeBlobs.push(blob);
      block.forEachNode((_id, lat7, lng7) => {
        elements++;
        if (block.hasPlaceKey()) placesAt(block.tags(), lat7, lng7, out);
      });
    }
    if (contents.ways) {
      index.wayBlobs.push(blob);
      block.forEachWay((_id, refs, count) => {
        elements++;
        if (!block.hasPlaceKey()) return;
        const tags = block.tags();
        if (!wayNeedsGeometry(tags)) return;
        index.neededNodes.addAll(refs, count);
        if (interpolationStep(tags) !== null) {
          for (let i = 0; i < count; i++) index.interpolationNodes.add(refs[i] as number);
        }
      });
    }
    if (contents.relations) {
      block.forEachRelation((_id, count, memberId, memberType, role) => {
        elements++;
        if (!block.hasPlaceKey()) return;
        const tags = block.tags();
        if (!relationNeedsOutline(tags)) return;
        const outerWays: number[] = [];
        for (let i = 0; i < count; i++) {
          if (isOutlineMember(memberType(i), role(i))) outerWays.push(memberId(i));
        }
        for (const id of outerWays) index.outerWays.add(id);
        index.relations.push({ tags, outerWays });
      });
    }
    progress.report('scan', elements);
    if (out.length > 0) yield out;
  }
  progress.done('scan', elements);
  return index;
}

/** Pass 1b: ways come before relations, so the outer ways' nodes are known only now. */
async function collectOuterWayNodes(handle: FileHandle, index: FileIndex): Promise<void> {
  for await (const { data } of readBlobs(handle, index.wayBlobs)) {
    new PrimitiveBlock(data).forEachWay((id, refs, count) => {
      if (index.outerWays.has(id)) index.neededNodes.addAll(refs, count);
    });
  }
}

/** Pass 2: the coordinates of the nodes wanted ways use. */
async function readNeededNodes(handle: FileHandle, index: FileIndex, progress: Progress) {
  const coordinates = index.neededNodes.finish();
  const interpolationTags = new Map<number, Tags>();
  if (coordinates.size === 0) return { coordinates, interpolationTags };
  let nodes = 0;
  for await (const { data } of readBlobs(handle, index.nodeBlobs)) {
    const block = new PrimitiveBlock(data);
    block.forEachNode((id, lat7, lng7) => {
      nodes++;
      const at = coordinates.indexOf(id);
      if (at < 0) return;
      coordinates.set(at, lat7, lng7);
      if (index.interpolationNodes.has(id)) interpolationTags.set(id, block.tags());
    });
    progress.report('coordinates', nodes);
  }
  progress.done('coordinates', nodes);
  return { coordinates, interpolationTags };
}

/** Pass 3: the ways' places, then the multipolygons'. */
async function* resolveWays(
  handle: FileHandle,
  index: FileIndex,
  coordinates: NodeCoordinates,
  interpolationTags: ReadonlyMap<number, Tags>,
  progress: Progress,
): AsyncGenerator<PlaceRecord[]> {
  const resolver = new WayResolver(coordinates);
  const outlines = new Map<number, OutlineSum>();
  let ways = 0;
  for await (const { data } of readBlobs(handle, index.wayBlobs)) {
    const block = new PrimitiveBlock(data);
    const out: PlaceRecord[] = [];
    block.forEachWay((id, refs, count) => {
      ways++;
      const isOuter = index.outerWays.has(id);
      if (!isOuter && !block.hasPlaceKey()) return;
      const tags = block.tags();
      const wanted = wayNeedsGeometry(tags);
      if (!wanted && !isOuter) return;
      const geometry = resolver.resolve(refs, count);
      if (isOuter) outlines.set(id, sumOutline(geometry));
      if (!wanted) return;
      placesOfWay(tags, geometry, out);
      if (interpolationStep(tags) !== null) {
        interpolatedAddresses(tags, geometry, (i) => interpolationTags.get(resolver.idAt(i)), out);
      }
    });
    progress.report('ways', ways);
    if (out.length > 0) yield out;
  }
  progress.done('ways', ways);

  const out: PlaceRecord[] = [];
  for (const relation of index.relations) {
    placesOfRelation(
      relation.tags,
      relation.outerWays.map((id) => outlines.get(id)),
      out,
    );
  }
  progress.done('relations', index.relations.length);
  if (out.length > 0) yield out;
}

/** Tells the listener every million elements of a stage, and when the stage ends. */
class Progress {
  private reported = 0;

  constructor(private readonly listener: ProgressListener | undefined) {}

  report(stage: string, count: number): void {
    if (count - this.reported < 1_000_000) return;
    this.reported = count;
    this.listener?.(stage, count);
  }

  done(stage: string, count: number): void {
    this.reported = 0;
    this.listener?.(stage, count);
  }
}

/** A way's node coordinates, in arrays reused from way to way. */
class WayResolver {
  private lats = new Int32Array(2048);
  private lngs = new Int32Array(2048);
  private ids = new Float64Array(2048);

  constructor(private readonly coordinates: NodeCoordinates) {}

  resolve(refs: Float64Array, count: number): { lats: Int32Array; lngs: Int32Array; count: number } {
    if (count > this.lats.length) {
      this.lats = new Int32Array(count);
      this.lngs = new Int32Array(count);
      this.ids = new Float64Array(count);
    }
    let resolved = 0;
    for (let i = 0; i < count; i++) {
      const id = refs[i] as number;
      // A node missing from the extract (cut at its border) is left out.
      if (this.coordinates.copyTo(id, this.lats, this.lngs, resolved)) this.ids[resolved++] = id;
    }
    return { lats: this.lats, lngs: this.lngs, count: resolved };
  }

  /** The id of the resolved node at `index` of the last resolved way. */
  idAt(index: number): number {
    return this.ids[index] as number;
  }
}
