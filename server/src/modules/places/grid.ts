/**
 * A grid of ~110 × 115 m squares over Hungary and around it: reverse geocoding reads the squares
 * around a point through an index instead of measuring every place. Integer ids fit 32 bits.
 */
const CELL_LAT = 0.001;
const CELL_LNG = 0.0015;
const ORIGIN_LAT = 40;
const ORIGIN_LNG = 10;
const COLUMNS = 10_000;

const rowOf = (lat: number) => Math.max(0, Math.floor((lat - ORIGIN_LAT) / CELL_LAT));
const columnOf = (lng: number) => Math.min(COLUMNS - 1, Math.max(0, Math.floor((lng - ORIGIN_LNG) / CELL_LNG)));

export function cellOf(lat: number, lng: number): number {
  return rowOf(lat) * COLUMNS + columnOf(lng);
}

/** The squares within `ring` squares of the point's own (ring 1: 3 × 3). */
export function cellsAround(lat: number, lng: number, ring: number): number[] {
  const row = rowOf(lat);
  const column = columnOf(lng);
  const cells: number[] = [];
  for (let r = row - ring; r <= row + ring; r++) {
    if (r < 0) continue;
    for (let c = column - ring; c <= column + ring; c++) if (c >= 0 && c < COLUMNS) cells.push(r * COLUMNS + c);
  }
  return cells;
}

/** Metres a ring of squares reaches at least (the squares' shorter side). */
export const metresPerRing = (ring: number) => ring * 110;
