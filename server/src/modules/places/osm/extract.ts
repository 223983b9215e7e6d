/**
 * What an OpenStreetMap element means to the geocoder: the place records a node, a way or a
 * relation yields. Both readers (PBF and XML) decode elements and ask these functions, so the two
 * formats give the same records for the same data.
 *
 * Coordinates arrive in OSM's fixed point (1e-7 degrees, integers) so that centroids and
 * interpolations are computed identically whichever format they came from.
 */

import type { PlaceKind } from '@csomag/domain/places';

export type { PlaceKind };

export interface PlaceRecord {
  kind: PlaceKind;
  lat: number;
  lng: number;
  /** Street name / settlement name / station or landmark name; null for an address. */
  name: string | null;
  /** Address: addr:street, or addr:place when there is no street. */
  street: string | null;
  /** Address: addr:housenumber. */
  houseNumber: string | null;
  /** Address: addr:city. Null for the other kinds: the caller assigns a settlement by position. */
  settlement: string | null;
  postalCode: string | null;
  /**
   * Settlement: the place value (village, suburb…); station: railway_station, tram_stop…;
   * landmark: the deciding tag as key=value (amenity=townhall); street: the highway value, or square.
   */
  placeType: string | null;
}

export type Tags = Readonly<Record<string, string>>;

/** A way's or relation's nodes that the extract holds, in fixed point; missing nodes are left out. */
export interface Geometry {
  lats: ArrayLike<number>;
  lngs: ArrayLike<number>;
  count: number;
}

/** Degrees to OSM's fixed point. */
export const FIXED_POINT = 1e7;

/** An element with none of these keys yields no place, so a reader need not build its tags. */
export const PLACE_KEYS: ReadonlySet<string> = new Set(['name', 'addr:housenumber', 'addr:interpolation']);

/** At most this many addresses are interpolated along one way: more is a mapping error. */
export const MAX_INTERPOLATED_PER_WAY = 200;

const SETTLEMENT_PLACES = new Set([
  'city',
  'town',
  'village',
  'hamlet',
  'suburb',
  'quarter',
  'neighbourhood',
  'isolated_dwelling',
]);

// Tracks are left out: they are field roads, not addresses.
const STREET_HIGHWAYS = new Set([
  'trunk',
  'primary',
  'secondary',
  'tertiary',
  'unclassified',
  'residential',
  'living_street',
  'pedestrian',
  'service',
  'footway',
]);

// Checked in this order; the first match names the landmark's type.
const LANDMARK_TAGS: readonly (readonly [string, ReadonlySet<string>])[] = [
  ['amenity', new Set(['townhall', 'university', 'hospital', 'library', 'theatre', 'place_of_worship', 'marketplace'])],
  ['tourism', new Set(['attraction', 'museum', 'viewpoint', 'hotel'])],
  [
    'historic',
    new Set([
      'castle',
      'manor',
      'fort',
      'city_gate',
      'monument',
      'ruins',
      'church',
      'monastery',
      'archaeological_site',
    ]),
  ],
  ['leisure', new Set(['park'])],
  ['shop', new Set(['mall'])],
  ['building', new Set(['train_station'])],
];

// Multipolygon members that draw the outline.
const OUTLINE_ROLES = new Set(['outer', 'outline', '']);

export function stationType(tags: Tags): string | null {
  if (tags.station === 'subway') return 'subway_station';
  switch (tags.railway) {
    case 'station':
      return 'railway_station';
    case 'halt':
      return 'railway_halt';
    case 'tram_stop':
      return 'tram_stop';
  }
  if (tags.amenity === 'ferry_terminal') return 'ferry_terminal';
  if (tags.amenity === 'bus_station') return 'bus_station';
  if (tags.highway === 'bus_stop') return 'bus_stop';
  if (tags.public_transport === 'station') return 'public_transport_station';
  return null;
}

export function landmarkType(tags: Tags): string | null {
  for (const [key, values] of LANDMARK_TAGS) {
    const value = tags[key];
    if (value !== undefined && values.has(value)) return `${key}=${value}`;
  }
  return null;
}

function settlementType(tags: Tags): string | null {
  const place = tags.place;
  return place !== undefined && SETTLEMENT_PLACES.has(place) ? place : null;
}

function streetType(tags: Tags): string | null {
  const highway = tags.highway;
  return highway !== undefined && STREET_HIGHWAYS.has(highway) ? highway : null;
}

function addressStreet(tags: Tags): string | undefined {
  return tags['addr:street'] ?? tags['addr:place'];
}

function isAddress(tags: Tags): boolean {
  return tags['addr:housenumber'] !== undefined && addressStreet(tags) !== undefined;
}

/** The number step of an address interpolation line, or null when it is none we interpolate. */
export function interpolationStep(tags: Tags): number | null {
  switch (tags['addr:interpolation']) {
    case 'odd':
    case 'even':
      return 2;
    case 'all':
      return 1;
    default:
      return null;
  }
}

function hasPointPlace(tags: Tags): boolean {
  if (isAddress(tags)) return true;
  if (tags.name === undefined) return false;
  return (
    settlementType(tags) !== null ||
    tags.place === 'square' ||
    stationType(tags) !== null ||
    landmarkType(tags) !== null
  );
}

/** Whether a way yields anything once its nodes' coordinates are known. */
export function wayNeedsGeometry(tags: Tags): boolean {
  return (
    hasPointPlace(tags) || interpolationStep(tags) !== null || (tags.name !== undefined && streetType(tags) !== null)
  );
}

/** Whether a relation yields anything at the centroid of its outline (multipolygon buildings, parks…). */
export function relationNeedsOutline(tags: Tags): boolean {
  return (tags.type === 'multipolygon' || tags.type === 'building') && hasPointPlace(tags);
}

export function isOutlineMember(type: 'node' | 'way' | 'relation', role: string): boolean {
  return type === 'way' && OUTLINE_ROLES.has(role);
}

function record(
  kind: PlaceKind,
  lat7: number,
  lng7: number,
  name: string | null,
  placeType: string | null,
  postalCode: string | null,
): PlaceRecord {
  return {
    kind,
    lat: lat7 / FIXED_POINT,
    lng: lng7 / FIXED_POINT,
    name,
    street: null,
    houseNumber: null,
    settlement: null,
    postalCode,
    placeType,
  };
}

function addressRecord(tags: Tags, houseNumber: string, lat7: number, lng7: number): PlaceRecord | null {
  const street = addressStreet(tags);
  if (street === undefined) return null;
  const address = record('address', lat7, lng7, null, null, tags['addr:postcode'] ?? null);
  address.street = street;
  address.houseNumber = houseNumber;
  address.settlement = tags['addr:city'] ?? null;
  return address;
}

/** The places of an element that stands at one point: a node, or a way's or relation's centroid. */
export function placesAt(tags: Tags, lat7: number, lng7: number, out: PlaceRecord[]): void {
  const houseNumber = tags['addr:housenumber'];
  if (houseNumber !== undefined) {
    const address = addressRecord(tags, houseNumber, lat7, lng7);
    if (address) out.push(address);
  }
  const name = tags.name;
  if (name === undefined) return;
  const postalCode = tags['addr:postcode'] ?? tags.postal_code ?? null;
  const settlement = settlementType(tags);
  if (settlement !== null) out.push(record('settlement', lat7, lng7, name, settlement, postalCode));
  if (tags.place === 'square') out.push(record('street', lat7, lng7, name, 'square', postalCode));
  // A station building is a station, not also a landmark.
  const station = stationType(tags);
  if (station !== null) {
    out.push(record('station', lat7, lng7, name, station, postalCode));
    return;
  }
  const landmark = landmarkType(tags);
  if (landmark !== null) out.push(record('landmark', lat7, lng7, name, landmark, postalCode));
}

/** The places of a way whose nodes are resolved (interpolation lines aside: see interpolatedAddresses). */
export function placesOfWay(tags: Tags, geometry: Geometry, out: PlaceRecord[]): void {
  if (geometry.count === 0) return;
  const name = tags.name;
  const highway = streetType(tags);
  if (name !== undefined && highway !== null) {
    // A pedestrian area is placed at its centre, a line at its node nearest the middle.
    const [lat7, lng7] = tags.area === 'yes' ? centroid(geometry) : middleNode(geometry);
    out.push(record('street', lat7, lng7, name, highway, tags.postal_code ?? null));
  }
  if (hasPointPlace(tags)) {
    const [lat7, lng7] = centroid(geometry);
    placesAt(tags, lat7, lng7, out);
  }
}

/** The average of the nodes, counting a closed way's repeated first node once. */
export function centroid(geometry: Geometry): [number, number] {
  const { lats, lngs } = geometry;
  let count = geometry.count;
  if (count > 1 && lats[0] === lats[count - 1] && lngs[0] === lngs[count - 1]) count--;
  let latSum = 0;
  let lngSum = 0;
  for (let i = 0; i < count; i++) {
    latSum += lats[i] ?? 0;
    lngSum += lngs[i] ?? 0;
  }
  return [Math.round(latSum / count), Math.round(lngSum / count)];
}

/** Lengths along the way from its first node, in fixed-point degrees of latitude. */
function cumulativeLengths(geometry: Geometry, from: number, to: number): Float64Array {
  const { lats, lngs } = geometry;
  const lengths = new Float64Array(to - from + 1);
  const lngScale = Math.cos(((lats[from] ?? 0) / FIXED_POINT) * (Math.PI / 180));
  for (let i = from + 1; i <= to; i++) {
    const dLat = (lats[i] ?? 0) - (lats[i - 1] ?? 0);
    const dLng = ((lngs[i] ?? 0) - (lngs[i - 1] ?? 0)) * lngScale;
    lengths[i - from] = (lengths[i - from - 1] ?? 0) + Math.sqrt(dLat * dLat + dLng * dLng);
  }
  return lengths;
}

/** The node nearest the middle of the way, measured along it. */
function middleNode(geometry: Geometry): [number, number] {
  const lengths = cumulativeLengths(geometry, 0, geometry.count - 1);
  const half = (lengths[lengths.length - 1] ?? 0) / 2;
  let best = 0;
  for (let i = 1; i < lengths.length; i++) {
    if (Math.abs((lengths[i] ?? 0) - half) < Math.abs((lengths[best] ?? 0) - half)) best = i;
  }
  return [geometry.lats[best] ?? 0, geometry.lngs[best] ?? 0];
}

/** The point `fraction` of the way along the stretch from node `from` to node `to`. */
function pointAlong(geometry: Geometry, from: number, to: number, fraction: number): [number, number] {
  const { lats, lngs } = geometry;
  const lengths = cumulativeLengths(geometry, from, to);
  const target = (lengths[lengths.length - 1] ?? 0) * fraction;
  let i = 1;
  while (i < lengths.length - 1 && (lengths[i] ?? 0) < target) i++;
  const start = lengths[i - 1] ?? 0;
  const span = (lengths[i] ?? 0) - start;
  const t = span > 0 ? (target - start) / span : 0;
  const a = from + i - 1;
  const b = Math.min(from + i, to);
  return [
    Math.round((lats[a] ?? 0) + ((lats[b] ?? 0) - (lats[a] ?? 0)) * t),
    Math.round((lngs[a] ?? 0) + ((lngs[b] ?? 0) - (lngs[a] ?? 0)) * t),
  ];
}

interface Anchor {
  index: number;
  number: number;
  tags: Tags;
}

/**
 * The addresses along an interpolation line (addr:interpolation=odd|even|all) between its nodes
 * that carry house numbers. Street, city and postcode come from those nodes (the line's own tags
 * as a fallback). A numbered node that is not an address on its own (no street) is emitted too;
 * one that is, was emitted as a node already.
 */
export function interpolatedAddresses(
  tags: Tags,
  geometry: Geometry,
  tagsOfNode: (index: number) => Tags | undefined,
  out: PlaceRecord[],
): void {
  const step = interpolationStep(tags);
  if (step === null) return;
  const anchors: Anchor[] = [];
  for (let index = 0; index < geometry.count; index++) {
    const nodeTags = tagsOfNode(index);
    const houseNumber = nodeTags?.['addr:housenumber'];
    if (nodeTags && houseNumber !== undefined && /^\d{1,6}$/.test(houseNumber)) {
      anchors.push({ index, number: Number(houseNumber), tags: nodeTags });
    }
  }
  const parity = tags['addr:interpolation'] === 'odd' ? 1 : tags['addr:interpolation'] === 'even' ? 0 : null;
  // The line's own tags fill in what its numbered nodes leave out.
  const withLineTags = (...nodeTags: Tags[]): Tags => Object.assign({}, tags, ...nodeTags.reverse());
  let budget = MAX_INTERPOLATED_PER_WAY;

  for (const anchor of anchors) {
    if (isAddress(anchor.tags) || budget === 0) continue;
    const lat7 = geometry.lats[anchor.index] ?? 0;
    const lng7 = geometry.lngs[anchor.index] ?? 0;
    const address = addressRecord(withLineTags(anchor.tags), String(anchor.number), lat7, lng7);
    if (address) {
      out.push(address);
      budget--;
    }
  }
  for (let k = 1; k < anchors.length; k++) {
    const a = anchors[k - 1] as Anchor;
    const b = anchors[k] as Anchor;
    const span = b.number - a.number;
    // A stretch that would go over the budget is a mapping error, not a street of 10,000 houses.
    if (span === 0 || b.index === a.index || Math.abs(span) / step > budget + 1) continue;
    const direction = Math.sign(span);
    const numbers: number[] = [];
    for (let n = a.number + direction; n !== b.number; n += direction) {
      if (parity === null || Math.abs(n % 2) === parity) numbers.push(n);
    }
    if (numbers.length > budget) continue;
    budget -= numbers.length;
    const addressTags = withLineTags(a.tags, b.tags);
    for (const n of numbers) {
      const [lat7, lng7] = pointAlong(geometry, a.index, b.index, (n - a.number) / span);
      const address = addressRecord(addressTags, String(n), lat7, lng7);
      if (address) out.push(address);
    }
  }
}

/** A way's share of a multipolygon's centroid. */
export interface OutlineSum {
  latSum: number;
  lngSum: number;
  count: number;
}

export function sumOutline(geometry: Geometry): OutlineSum {
  if (geometry.count === 0) return { latSum: 0, lngSum: 0, count: 0 };
  const [lat7, lng7] = centroid(geometry);
  return { latSum: lat7 * geometry.count, lngSum: lng7 * geometry.count, count: geometry.count };
}

/** The places of a multipolygon, at the centroid of its outer ways (those the extract holds). */
export function placesOfRelation(tags: Tags, outlines: readonly (OutlineSum | undefined)[], out: PlaceRecord[]): void {
  let latSum = 0;
  let lngSum = 0;
  let count = 0;
  for (const outline of outlines) {
    if (!outline) continue;
    latSum += outline.latSum;
    lngSum += outline.lngSum;
    count += outline.count;
  }
  if (count > 0) placesAt(tags, Math.round(latSum / count), Math.round(lngSum / count), out);
}
