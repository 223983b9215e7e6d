/** A typed array of `size` holding `array`'s values first (scratch and lists that grow by doubling). */
export function grown<T extends Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array>(
  array: T,
  size: number,
): T {
  const bigger = new (array.constructor as new (size: number) => T)(size);
  bigger.set(array);
  return bigger;
}
