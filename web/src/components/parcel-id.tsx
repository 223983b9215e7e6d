/** A parcel's id as every screen sets it: monospace, so look-alike characters stay apart. */
export function ParcelId({ id }: { id: string }) {
  return <span className="mono">{id}</span>;
}
