import { distanceMetres, EARTH_RADIUS_M } from '@csomag/domain/geo';
import type { Coordinates } from '@csomag/domain/parcel';
import type { LatLngBox } from '@csomag/domain/trips';
import { trim } from '../../lru.ts';
import { grown } from './typed-arrays.ts';

/**
 * The stops within a walk of a point (issue 26): a grid of latitude/longitude cells over a
 * timetable's stops, built once, so the router finds a point's access and egress stops without
 * measuring the distance to every stop. Distances are domain's great circle, so "within R" means
 * what it means everywhere else. A timetable is assumed not to straddle ±180° longitude.
 */

/** Metres along a meridian per degree of latitude (the sphere of domain's distanceMetres). */
export const METRES_PER_DEGREE = (EARTH_RADIUS_M * Math.PI) / 180;

/**
 * Half the sides (degrees) of a box holding every point within `metres` (great circle) of a point
 * at `lat`. Latitude: a path of length R changes latitude by at most R / METRES_PER_DEGREE.
 * Longitude: along the path ds ≥ cos(lat) · dlng (in the same units), and no point of a path of
 * length R from `lat` is nearer a pole than |lat| + dLat, so the longitude changes by at most
 * dLat / cos(|lat| + dLat). Within a degree of a pole, every longitude.
 */
export function degreesAround(lat: number, metres: number): { dLat: number; dLng: number } {
  // A millionth more absorbs rounding in the division and in the haversine compared against it.
  const dLat = (metres / METRES_PER_DEGREE) * (1 + 1e-6);
  const nearestPole = Math.abs(lat) + dLat;
  const dLng = nearestPole >= 89 ? 360 : dLat / Math.cos((nearestPole * Math.PI) / 180);
  return { dLat, dLng };
}

/** A reusable answer: the first `count` entries of `stops` and their `metres`; grows as needed. */
export class NearStops {
  count = 0;
  stops = new Uint32Array(64);
  metres = new Float64Array(64);

  /** These stops and metres instead of what it holds. */
  copy(stops: Uint32Array, metres: Float64Array) {
    if (stops.length > this.stops.length) {
      this.stops = new Uint32Array(stops.length * 2);
      this.metres = new Float64Array(stops.length * 2);
    }
    this.stops.set(stops);
    this.metres.set(metres);
    this.count = stops.length;
  }

  push(stop: number, metres: number) {
    if (this.count === this.stops.length) {
      const stops = new Uint32Array(this.count * 2);
      stops.set(this.stops);
      this.stops = stops;
      const distances = new Float64Array(this.count * 2);
      distances.set(this.metres);
      this.metres = distances;
    }
    this.stops[this.count] = stop;
    this.metres[this.count] = metres;
    this.count++;
  }
}

/**
 * A slope under a walk that is a line through 0 rounded up (the walking model): walk(m) ≥ m · slope
 * for every m — the rounding of walk(1e6) and of the product taken off.
 */
export const slopeAtLeast = (walk: (metres: number) => number) => ((walk(1e6) - 1) / 1e6) * (1 - 1e-9);

/** A search's times kept compact (StopGrid.summarize): whole minutes per block of cells. */
export interface CellSummary {
  sign: 1 | -1;
  /** The instant the minutes count from. */
  origin: number;
  /** The blocks kept: rows × cols from (firstRow, firstCol), in blocks. */
  firstRow: number;
  firstCol: number;
  rows: number;
  cols: number;
  minutes: Int16Array;
}

/** Cells per side of a summary's block: ~3 km, a few KB for a city's reach. */
const SUMMARY_BLOCK = 3;
const MINUTE_MS = 60_000;
const INT16_MAX = 32_767;
const INT16_MIN = -32_768;

/** Cells about this wide: a 1.5 km walk looks at 4 × 4 cells or so. */
const CELL_METRES = 1_000;
/** A country's stops fit easily; a continent's widen the cells rather than grow the index. */
const MAX_CELLS_PER_STOP = 8;

/** Points whose stops within a walk are remembered (StopGrid.within): ~100 stops a point in a city, ~10 MiB at most. */
const REMEMBERED_POINTS = 8_192;

/**
 * Answers kept for the points asked last (the first asked leave first, past `size`). A point is
 * found by a number naming it to ~1 m and then compared in full: two points sharing the number
 * each keep their own answer in turn, never the other's.
 */
export class PointMemo<T> {
  private readonly known = new Map<number, { lat: number; lng: number; value: T }>();

  constructor(private readonly size: number) {}

  get(point: Coordinates): T | undefined {
    const known = this.known.get(PointMemo.key(point));
    return known && known.lat === point.lat && known.lng === point.lng ? known.value : undefined;
  }

  set(point: Coordinates, value: T) {
    this.known.set(PointMemo.key(point), { lat: point.lat, lng: point.lng, value });
    trim(this.known, this.size);
  }

  /** Latitude and longitude in 1e-5 degrees, side by side in one safe integer (NaN: never found). */
  private static key(point: Coordinates) {
    return Math.round((point.lat + 90) * 1e5) * 4e7 + Math.round((point.lng + 180) * 1e5);
  }
}

export class StopGrid {
  /** Each stop's position, made once: domain's distanceMetres takes Coordinates. */
  readonly positions: readonly Coordinates[];
  private readonly lat: Float64Array;
  private readonly lng: Float64Array;
  private readonly minLat: number;
  private readonly minLng: number;
  private readonly cellLat: number;
  private readonly cellLng: number;
  private readonly rows: number;
  private readonly cols: number;
  /** Compressed rows: cell i's stops are cellStops[cellStart[i] … cellStart[i + 1]). */
  private readonly cellStart: Uint32Array;
  private readonly cellStops: Uint32Array;
  /** The cells holding a stop, numbered from 0 (-1: none), and each stop's by that number: cellBest's index. */
  private readonly heldCell: Int32Array;
  private readonly stopHeldCell: Uint32Array;
  private readonly heldCount: number;
  /** measureNear's lists for `nearFor` metres: per cell where its list starts (-1: not made) and ends. */
  private nearFor = Number.NaN;
  private readonly nearFrom: Int32Array;
  private readonly nearTo: Int32Array;
  private nearHeld = new Int32Array(1024);
  private nearMetres = new Float64Array(1024);
  private nearCount = 0;
  /** within's answers for the points asked last. */
  private readonly remembered = new PointMemo<{ radius: number; stops: Uint32Array; metres: Float64Array }>(
    REMEMBERED_POINTS,
  );

  constructor(lat: Float64Array, lng: Float64Array) {
    const count = lat.length;
    this.lat = lat;
    this.lng = lng;
    this.positions = Array.from({ length: count }, (_, stop) => ({ lat: lat[stop] ?? 0, lng: lng[stop] ?? 0 }));
    let minLat = Number.POSITIVE_INFINITY;
    let maxLat = Number.NEGATIVE_INFINITY;
    let minLng = Number.POSITIVE_INFINITY;
    let maxLng = Number.NEGATIVE_INFINITY;
    for (const { lat: y, lng: x } of this.positions) {
      // A stop with no position is never within reach (its distance is NaN); it must not spoil the bounds.
      if (!Number.isFinite(y) || !Number.isFinite(x)) continue;
      minLat = Math.min(minLat, y);
      maxLat = Math.max(maxLat, y);
      minLng = Math.min(minLng, x);
      maxLng = Math.max(maxLng, x);
    }
    if (!(minLat <= maxLat)) minLat = maxLat = minLng = maxLng = 0;
    // Cells at least CELL_METRES wide everywhere: longitude scaled at the edge nearest a pole.
    const widest = Math.min(89, Math.max(Math.abs(minLat), Math.abs(maxLat)));
    let cellLat = CELL_METRES / METRES_PER_DEGREE;
    let cellLng = cellLat / Math.cos((widest * Math.PI) / 180);
    const cells = ((maxLat - minLat) / cellLat + 1) * ((maxLng - minLng) / cellLng + 1);
    const limit = Math.max(1024, MAX_CELLS_PER_STOP * count);
    if (cells > limit) {
      const scale = Math.sqrt(cells / limit);
      cellLat *= scale;
      cellLng *= scale;
    }
    this.minLat = minLat;
    this.minLng = minLng;
    this.cellLat = cellLat;
    this.cellLng = cellLng;
    this.rows = Math.floor((maxLat - minLat) / cellLat) + 1;
    this.cols = Math.floor((maxLng - minLng) / cellLng) + 1;

    const cellOf = new Uint32Array(count);
    this.cellStart = new Uint32Array(this.rows * this.cols + 1);
    for (let stop = 0; stop < count; stop++) {
      const cell = this.row(lat[stop] ?? 0) * this.cols + this.col(lng[stop] ?? 0);
      cellOf[stop] = cell;
      this.cellStart[cell + 1] = (this.cellStart[cell + 1] ?? 0) + 1;
    }
    for (let cell = 0; cell < this.rows * this.cols; cell++) {
      this.cellStart[cell + 1] = (this.cellStart[cell + 1] ?? 0) + (this.cellStart[cell] ?? 0);
    }
    this.heldCell = new Int32Array(this.rows * this.cols).fill(-1);
    let held = 0;
    for (let cell = 0; cell < this.rows * this.cols; cell++) {
      if ((this.cellStart[cell + 1] as number) > (this.cellStart[cell] as number)) this.heldCell[cell] = held++;
    }
    this.heldCount = held;
    this.nearFrom = new Int32Array(this.rows * this.cols).fill(-1);
    this.nearTo = new Int32Array(this.rows * this.cols);
    this.stopHeldCell = Uint32Array.from(cellOf, (cell) => this.heldCell[cell] as number);
    const next = this.cellStart.slice(0, -1);
    this.cellStops = new Uint32Array(count);
    for (let stop = 0; stop < count; stop++) {
      const cell = cellOf[stop] ?? 0;
      this.cellStops[next[cell] ?? 0] = stop;
      next[cell] = (next[cell] ?? 0) + 1;
    }
  }

  // Clamped to the grid; NaN to the first row or column.
  private row(lat: number) {
    const row = Math.floor((lat - this.minLat) / this.cellLat);
    return row > 0 ? Math.min(this.rows - 1, row) : 0;
  }

  private col(lng: number) {
    const col = Math.floor((lng - this.minLng) / this.cellLng);
    return col > 0 ? Math.min(this.cols - 1, col) : 0;
  }

  /**
   * The best time at `point` over the stops within `metres` of it (great circle, inclusive): with
   * `sign` 1 the least `times[stop] + walk(distance)`, with -1 the greatest `times[stop] - walk(distance)`,
   * starting from `best`. The same answer as measuring every stop with `within`, for a fraction of the
   * cost: a stop is measured only when a lower bound of its distance (planar, below the great circle
   * at these sizes) leaves it able to improve on the best so far; most stops near a point never can.
   * `walk` must be a line through 0 rounded up (the walking model: walk(m) ≥ m · walk(1e6) / 1e6). `cells`: cellBest of the same times and sign,
   * made once for the many points a search is asked about.
   */
  bestTime(
    point: Coordinates,
    metres: number,
    times: Float64Array,
    walk: (metres: number) => number,
    sign: 1 | -1,
    best: number,
    cells: Float64Array,
  ): number {
    // Passing over is decided on walk's slope (no call, no rounding).
    const slope = slopeAtLeast(walk);
    const { dLat, dLng } = degreesAround(point.lat, metres);
    const top = point.lat + dLat;
    const bottom = point.lat - dLat;
    const left = point.lng - dLng;
    const right = point.lng + dLng;
    let worst = sign * best;
    if (this.positions.length === 0 || top < this.minLat || right < this.minLng) return best;
    if (bottom > this.minLat + this.rows * this.cellLat || left > this.minLng + this.cols * this.cellLng) return best;
    // cos(lat) is least at the box's edge nearest a pole: its planar distance is the lower bound (below).
    const shrink = Math.cos((Math.min(89, Math.max(Math.abs(top), Math.abs(bottom))) * Math.PI) / 180);
    // The great circle's square is at least the planar one's times 1 - x²/12, x the box's larger
    // half-side in radians (haversine's sines and asin against their arguments); a millionth more
    // absorbs rounding (router.test.ts checks the answers against measuring every stop).
    const below = 1 - 1e-6 - ((Math.max(dLat, dLng) * Math.PI) / 180) ** 2 / 12;
    const limit = metres * metres;
    const xScale = METRES_PER_DEGREE * shrink;
    const lastRow = this.row(top);
    const firstCol = this.col(left);
    const lastCol = this.col(right);
    for (let row = this.row(bottom); row <= lastRow; row++) {
      const south = this.minLat + row * this.cellLat;
      const dy = Math.max(0, south - point.lat, point.lat - (south + this.cellLat)) * METRES_PER_DEGREE;
      for (let col = firstCol; col <= lastCol; col++) {
        const cell = row * this.cols + col;
        // A whole cell passed over: no stop, or its best time, walked from its nearest edge, improves nothing.
        const held = this.heldCell[cell] as number;
        if (held < 0) continue;
        const cellTime = cells[held] as number;
        if (!(cellTime < worst)) continue;
        const west = this.minLng + col * this.cellLng;
        const dx = Math.max(0, west - point.lng, point.lng - (west + this.cellLng)) * xScale;
        const near = (dx * dx + dy * dy) * below;
        if (near > limit || cellTime + Math.sqrt(near) * slope >= worst) continue;
        for (let at = this.cellStart[cell] as number, end = this.cellStart[cell + 1] as number; at < end; at++) {
          const stop = this.cellStops[at] as number;
          const time = sign * (times[stop] as number);
          // Unreached (an infinity) or already no better.
          if (!(time < worst)) continue;
          const lat = this.lat[stop] as number;
          const lng = this.lng[stop] as number;
          if (lat < bottom || lat > top || lng < left || lng > right) continue;
          const y = (lat - point.lat) * METRES_PER_DEGREE;
          const x = (lng - point.lng) * xScale;
          const planar = (x * x + y * y) * below;
          if (planar > limit || time + Math.sqrt(planar) * slope >= worst) continue;
          const position = this.positions[stop];
          if (!position) continue;
          const distance = distanceMetres(point, position);
          if (distance > metres) continue;
          const candidate = time + walk(distance);
          if (candidate < worst) worst = candidate;
        }
      }
    }
    return sign * worst;
  }

  /** The cell `point` lies in, or -1 beyond the grid (or NaN). */
  cellAt(point: Coordinates): number {
    const row = Math.floor((point.lat - this.minLat) / this.cellLat);
    const col = Math.floor((point.lng - this.minLng) / this.cellLng);
    if (!(row >= 0 && row < this.rows && col >= 0 && col < this.cols)) return -1;
    return row * this.cols + col;
  }

  /** The box of a cell (cellAt's). */
  cellBox(cell: number): LatLngBox {
    const row = Math.floor(cell / this.cols);
    const south = this.minLat + row * this.cellLat;
    const west = this.minLng + (cell - row * this.cols) * this.cellLng;
    return { minLat: south, maxLat: south + this.cellLat, minLng: west, maxLng: west + this.cellLng };
  }

  /**
   * A bound of bestTime's answer from the stops alone (`best` ±Infinity) at every point of `cell` at
   * once: with `sign` 1 never later, with -1 never earlier. Each cell within `metres` counts its best
   * time (`cells`, cellBest's) walked at `slope` ms a metre (walk's, at least) from the nearest edges
   * of the two cells, at a planar lower bound of the distance as bestTime's.
   */
  cellBound(cell: number, metres: number, cells: Float64Array, slope: number, sign: 1 | -1): number {
    this.measureNear(cell, metres);
    const { nearHeld, nearMetres } = this;
    let best = Number.POSITIVE_INFINITY;
    for (let i = this.nearFrom[cell] as number, end = this.nearTo[cell] as number; i < end; i++) {
      const time = (cells[nearHeld[i] as number] as number) + (nearMetres[i] as number) * slope;
      if (time < best) best = time;
    }
    return sign * best;
  }

  /**
   * Lists the cells holding a stop within `metres` of `cell` (heldCell's numbers), each with a planar
   * lower bound of the metres between the nearest edges of the two, unless listed: the same for every
   * search, so worked out once a cell (the parcels' cells, asked query after query). A new `metres`
   * starts the lists again. At most every cell's list is kept: ~12 MiB for a country.
   */
  private measureNear(cell: number, metres: number) {
    if (this.nearFor !== metres) {
      this.nearFor = metres;
      this.nearFrom.fill(-1);
      this.nearCount = 0;
    }
    if ((this.nearFrom[cell] as number) >= 0) return;
    const { minLat: south, minLng: west } = this.cellBox(cell);
    const { dLat, dLng } = degreesAround(Math.max(Math.abs(south), Math.abs(south + this.cellLat)), metres);
    const top = south + this.cellLat + dLat;
    const bottom = south - dLat;
    const shrink = Math.cos((Math.min(89, Math.max(Math.abs(top), Math.abs(bottom))) * Math.PI) / 180);
    // Two points of the cell and its surroundings lie less than a cell and the walk apart.
    const below = 1 - 1e-6 - ((Math.max(dLat + this.cellLat, dLng + this.cellLng) * Math.PI) / 180) ** 2 / 12;
    const limit = metres * metres;
    const xScale = METRES_PER_DEGREE * shrink;
    const lastRow = this.row(top);
    const firstCol = this.col(west - dLng);
    const lastCol = this.col(west + this.cellLng + dLng);
    this.nearFrom[cell] = this.nearCount;
    for (let other = this.row(bottom); other <= lastRow; other++) {
      const otherSouth = this.minLat + other * this.cellLat;
      const dy =
        Math.max(0, otherSouth - (south + this.cellLat), south - (otherSouth + this.cellLat)) * METRES_PER_DEGREE;
      for (let otherCol = firstCol; otherCol <= lastCol; otherCol++) {
        const held = this.heldCell[other * this.cols + otherCol] as number;
        if (held < 0) continue;
        const otherWest = this.minLng + otherCol * this.cellLng;
        const dx = Math.max(0, otherWest - (west + this.cellLng), west - (otherWest + this.cellLng)) * xScale;
        const near = (dx * dx + dy * dy) * below;
        if (near > limit) continue;
        if (this.nearCount === this.nearHeld.length) {
          this.nearHeld = grown(this.nearHeld, this.nearCount * 2);
          this.nearMetres = grown(this.nearMetres, this.nearCount * 2);
        }
        this.nearHeld[this.nearCount] = held;
        this.nearMetres[this.nearCount] = Math.sqrt(near);
        this.nearCount++;
      }
    }
    this.nearTo[cell] = this.nearCount;
  }

  /**
   * Each cell's best time (`sign` · time, least) over its stops, for the cells holding any (in the
   * order of heldCell): bestTime passes over whole cells with it. One pass over the stops; a search
   * keeps it for all the points it is asked about.
   */
  cellBest(times: Float64Array, sign: 1 | -1): Float64Array {
    // Only the cells holding a stop (a country's grid has several cells a stop, most of them empty).
    const cells = new Float64Array(this.heldCount).fill(Number.POSITIVE_INFINITY);
    const { stopHeldCell } = this;
    for (let stop = 0; stop < stopHeldCell.length; stop++) {
      const time = sign * (times[stop] as number);
      const cell = stopHeldCell[stop] as number;
      if (time < (cells[cell] as number)) cells[cell] = time;
    }
    return cells;
  }

  /**
   * A search's times kept compact (a saved trip's reach, kept for many new parcels): per block of
   * SUMMARY_BLOCK × SUMMARY_BLOCK cells over the blocks where any stop's time is finite, the best
   * (`sign` 1: earliest, -1: latest) in whole minutes from `origin`, rounded outwards (down for
   * 1, up for -1), so whatever summaryTime answers from it is a bound. Null when no time is finite.
   */
  summarize(times: Float64Array, sign: 1 | -1, origin: number): CellSummary | null {
    let [top, bottom, left, right] = [-1, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -1];
    const block = SUMMARY_BLOCK;
    for (let stop = 0; stop < times.length; stop++) {
      if (!Number.isFinite(times[stop])) continue;
      const row = Math.floor(this.row(this.lat[stop] as number) / block);
      const col = Math.floor(this.col(this.lng[stop] as number) / block);
      [top, bottom, left, right] = [
        Math.max(top, row),
        Math.min(bottom, row),
        Math.min(left, col),
        Math.max(right, col),
      ];
    }
    if (top < 0) return null;
    const rows = top - bottom + 1;
    const cols = right - left + 1;
    const none = sign === 1 ? INT16_MAX : INT16_MIN;
    const minutes = new Int16Array(rows * cols).fill(none);
    for (let stop = 0; stop < times.length; stop++) {
      const time = times[stop] as number;
      if (!Number.isFinite(time)) continue;
      const at =
        (Math.floor(this.row(this.lat[stop] as number) / block) - bottom) * cols +
        Math.floor(this.col(this.lng[stop] as number) / block) -
        left;
      const offset = (time - origin) / MINUTE_MS;
      const rounded = Math.max(
        INT16_MIN + 1,
        Math.min(INT16_MAX - 1, sign === 1 ? Math.floor(offset) : Math.ceil(offset)),
      );
      const kept = minutes[at] as number;
      if (kept === none || sign * rounded < sign * kept) minutes[at] = rounded;
    }
    return { sign, origin, firstRow: bottom, firstCol: left, rows, cols, minutes };
  }

  /**
   * A bound of bestTime from a summary: the best over the blocks within `metres` of `point` of the
   * block's minutes, walked from its nearest edge at `slope` ms a metre (sign 1: never later than
   * bestTime's earliest, -1: never earlier than its latest). ±Infinity when no block is near.
   */
  summaryTime(point: Coordinates, metres: number, summary: CellSummary, slope: number): number {
    const { sign, origin, firstRow, firstCol, rows, cols, minutes } = summary;
    const none = sign === 1 ? INT16_MAX : INT16_MIN;
    const { dLat, dLng } = degreesAround(point.lat, metres);
    const top = point.lat + dLat;
    const bottom = point.lat - dLat;
    const shrink = Math.cos((Math.min(89, Math.max(Math.abs(top), Math.abs(bottom))) * Math.PI) / 180);
    const below = 1 - 1e-6 - ((Math.max(dLat, dLng) * Math.PI) / 180) ** 2 / 12;
    const block = SUMMARY_BLOCK;
    const blockLat = this.cellLat * block;
    const blockLng = this.cellLng * block;
    // Blocks are whole cells from the grid's corner; a point beyond the grid is measured to them all the same.
    const lastRow = Math.min(rows - 1, Math.floor((top - this.minLat) / blockLat) - firstRow);
    const lastCol = Math.min(cols - 1, Math.floor((point.lng + dLng - this.minLng) / blockLng) - firstCol);
    let best = Number.POSITIVE_INFINITY;
    for (let row = Math.max(0, Math.floor((bottom - this.minLat) / blockLat) - firstRow); row <= lastRow; row++) {
      const south = this.minLat + (firstRow + row) * blockLat;
      const dy = Math.max(0, south - point.lat, point.lat - (south + blockLat)) * METRES_PER_DEGREE;
      for (
        let col = Math.max(0, Math.floor((point.lng - dLng - this.minLng) / blockLng) - firstCol);
        col <= lastCol;
        col++
      ) {
        const kept = minutes[row * cols + col] as number;
        if (kept === none) continue;
        const west = this.minLng + (firstCol + col) * blockLng;
        const dx = Math.max(0, west - point.lng, point.lng - (west + blockLng)) * METRES_PER_DEGREE * shrink;
        const near = (dx * dx + dy * dy) * below;
        if (near > metres * metres) continue;
        const time = sign * kept * MINUTE_MS + Math.sqrt(near) * slope;
        if (time < best) best = time;
      }
    }
    return best === Number.POSITIVE_INFINITY ? sign * best : origin + sign * best;
  }

  /**
   * The stops within `metres` (great circle, inclusive) of `point`, into `into` (cleared first); answers their count.
   * The answers for the points asked last are remembered (a parcel's points are asked about by every
   * search of a trip query, and by the next query): the same stops in the same order, copied.
   */
  within(point: Coordinates, metres: number, into: NearStops): number {
    const known = this.remembered.get(point);
    if (known && known.radius === metres) {
      into.copy(known.stops, known.metres);
      return into.count;
    }
    this.measure(point, metres, into);
    this.remembered.set(point, {
      radius: metres,
      stops: into.stops.slice(0, into.count),
      metres: into.metres.slice(0, into.count),
    });
    return into.count;
  }

  private measure(point: Coordinates, metres: number, into: NearStops) {
    into.count = 0;
    const { dLat, dLng } = degreesAround(point.lat, metres);
    // Cells wholly beyond the grid hold no stop; clamping keeps the edge cells, which may.
    const top = point.lat + dLat;
    const bottom = point.lat - dLat;
    const left = point.lng - dLng;
    const right = point.lng + dLng;
    if (this.positions.length === 0 || top < this.minLat || right < this.minLng) return;
    if (bottom > this.minLat + this.rows * this.cellLat || left > this.minLng + this.cols * this.cellLng) return;
    const lastRow = this.row(top);
    const firstCol = this.col(left);
    const lastCol = this.col(right);
    for (let row = this.row(bottom); row <= lastRow; row++) {
      const end = this.cellStart[row * this.cols + lastCol + 1] ?? 0;
      // A row's cells are consecutive, so its columns' stops are one run of cellStops.
      for (let at = this.cellStart[row * this.cols + firstCol] ?? 0; at < end; at++) {
        const stop = this.cellStops[at] ?? 0;
        // Outside the disc's box is outside the disc: no need to measure.
        const lat = this.lat[stop] ?? 0;
        const lng = this.lng[stop] ?? 0;
        if (lat < bottom || lat > top || lng < left || lng > right) continue;
        const position = this.positions[stop];
        if (!position) continue;
        const distance = distanceMetres(point, position);
        if (distance <= metres) into.push(stop, distance);
      }
    }
  }
}
