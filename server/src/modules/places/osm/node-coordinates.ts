/**
 * Coordinates of just the nodes that wanted ways use. Of Hungary's ~35 M nodes, a few million
 * matter; their ids are collected first, then sorted and deduplicated, then their coordinates are
 * stored beside them in fixed point and found by binary search: 12 bytes per needed node.
 *
 * Node ids pass 2^32 (~13 billion today), so an id is kept as its low 32 bits in the bucket of its
 * high part: ids are numbered in time, and a few buckets hold them all.
 */

const TWO_32 = 4294967296;
const MISSING = -0x80000000;

class Bucket {
  lows = new Uint32Array(1 << 14);
  size = 0;

  constructor(readonly high: number) {}

  add(low: number): void {
    if (this.size === this.lows.length) this.makeRoom();
    this.lows[this.size++] = low;
  }

  // Ways share nodes (street crossings, building walls): deduplicate before growing, and grow by half,
  // as the old and the new array are both held while copying.
  private makeRoom(): void {
    this.size = sortUnique(this.lows, this.size);
    if (this.size > this.lows.length * 0.6) {
      const grown = new Uint32Array(Math.ceil(this.lows.length * 1.5));
      grown.set(this.lows.subarray(0, this.size));
      this.lows = grown;
    }
  }

  /** The sorted, distinct lows; a copy only when it frees much (both live until the old one is collected). */
  finish(): Uint32Array {
    this.size = sortUnique(this.lows, this.size);
    return this.size < this.lows.length / 2 ? this.lows.slice(0, this.size) : this.lows.subarray(0, this.size);
  }
}

function sortUnique(lows: Uint32Array, size: number): number {
  const part = lows.subarray(0, size);
  part.sort();
  let unique = 0;
  for (let i = 0; i < size; i++) {
    const low = part[i] as number;
    if (unique === 0 || part[unique - 1] !== low) part[unique++] = low;
  }
  return unique;
}

export class NodeIdCollector {
  private buckets = new Map<number, Bucket>();
  private last: Bucket | null = null;

  add(id: number): void {
    const high = Math.floor(id / TWO_32);
    let bucket = this.last;
    if (bucket?.high !== high) {
      bucket = this.buckets.get(high) ?? null;
      if (!bucket) {
        bucket = new Bucket(high);
        this.buckets.set(high, bucket);
      }
      this.last = bucket;
    }
    bucket.add(id - high * TWO_32);
  }

  /** A way's node ids; a closed ring's last node, the same as its first, is left out. */
  addAll(ids: Float64Array, count: number): void {
    const end = count > 1 && ids[0] === ids[count - 1] ? count - 1 : count;
    for (let i = 0; i < end; i++) this.add(ids[i] as number);
  }

  /** The collected ids, ready for coordinates; the collector is spent. */
  finish(): NodeCoordinates {
    const segments = [...this.buckets.values()].map((bucket) => ({ high: bucket.high, lows: bucket.finish() }));
    this.buckets = new Map();
    this.last = null;
    return new NodeCoordinates(segments);
  }
}

interface Segment {
  high: number;
  lows: Uint32Array;
  /** Index of its first id among all. */
  base: number;
  /** Where the last lookup ended: nodes come in id order, so the next one is usually just after. */
  cursor: number;
}

export class NodeCoordinates {
  private readonly segments: Segment[];
  private readonly lats: Int32Array;
  private readonly lngs: Int32Array;
  readonly size: number;

  constructor(segments: { high: number; lows: Uint32Array }[]) {
    let base = 0;
    this.segments = segments.map(({ high, lows }) => {
      const segment = { high, lows, base, cursor: 0 };
      base += lows.length;
      return segment;
    });
    this.size = base;
    this.lats = new Int32Array(base).fill(MISSING);
    this.lngs = new Int32Array(base);
  }

  /** The index of `id`, or -1 when it is not needed. */
  indexOf(id: number): number {
    const high = Math.floor(id / TWO_32);
    for (const segment of this.segments) {
      if (segment.high !== high) continue;
      const local = lookup(segment, id - high * TWO_32);
      return local < 0 ? -1 : segment.base + local;
    }
    return -1;
  }

  set(index: number, lat7: number, lng7: number): void {
    this.lats[index] = lat7;
    this.lngs[index] = lng7;
  }

  /** Writes the coordinates of `id` at `at` in the arrays; false when the node is not known. */
  copyTo(id: number, lats: Int32Array, lngs: Int32Array, at: number): boolean {
    const index = this.indexOf(id);
    if (index < 0) return false;
    const lat = this.lats[index] as number;
    if (lat === MISSING) return false;
    lats[at] = lat;
    lngs[at] = this.lngs[index] as number;
    return true;
  }
}

function lookup(segment: Segment, low: number): number {
  const lows = segment.lows;
  const n = lows.length;
  let from = 0;
  let to = n;
  const cursor = segment.cursor;
  if (cursor < n && (cursor === 0 || (lows[cursor - 1] as number) < low)) {
    // Gallop forward from the cursor.
    from = cursor;
    let step = 1;
    while (from + step < n && (lows[from + step] as number) < low) {
      from += step;
      step *= 2;
    }
    to = Math.min(n, from + step + 1);
  }
  while (from < to) {
    const mid = (from + to) >>> 1;
    if ((lows[mid] as number) < low) from = mid + 1;
    else to = mid;
  }
  segment.cursor = from;
  return from < n && lows[from] === low ? from : -1;
}
