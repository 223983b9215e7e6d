/** Least-recently-used bookkeeping on a Map, which keeps insertion order: the first entry is the coldest. */

/** Moves `key` to the newest end. */
export function bump<K, V>(map: Map<K, V>, key: K, value: V) {
  map.delete(key);
  map.set(key, value);
}

/** Drops the coldest entries beyond `size`; answers the last value dropped. */
export function trim<K, V>(map: Map<K, V>, size: number): V | undefined {
  let dropped: V | undefined;
  while (map.size > size) {
    const coldest = map.entries().next().value;
    if (!coldest) break;
    map.delete(coldest[0]);
    dropped = coldest[1];
  }
  return dropped;
}
