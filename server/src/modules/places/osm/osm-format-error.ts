/** The file is not an OpenStreetMap extract we can read: not OSM at all, truncated, or corrupt. */
export class OsmFormatError extends Error {
  override readonly name = 'OsmFormatError';
}
