import type { FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { inflate as inflateCallback } from 'node:zlib';
import { OsmFormatError } from './osm-format-error.ts';
import { ProtoReader } from './protobuf.ts';

/**
 * The blob layer of an .osm.pbf file (fileformat.proto): a sequence of
 * [4-byte big-endian header length][BlobHeader][Blob], the first an OSMHeader, the rest OSMData.
 * The file's layout is checked whole before any block is decoded, so a truncated download fails
 * before the first record; blobs are then read by position and inflated off the main thread,
 * a few ahead of the one being decoded.
 */

const inflate = promisify(inflateCallback);

// Limits from the format's specification.
const MAX_HEADER_SIZE = 64 * 1024;
const MAX_BLOB_SIZE = 32 * 1024 * 1024;
const READ_AHEAD = 4;

export interface BlobLocation {
  type: string;
  /** Where the Blob message starts in the file. */
  offset: number;
  size: number;
}

/** The locations of every blob in the file; throws OsmFormatError when the layout is broken. */
export async function scanBlobs(handle: FileHandle, fileSize: number): Promise<BlobLocation[]> {
  const blobs: BlobLocation[] = [];
  const lengthBytes = Buffer.alloc(4);
  let position = 0;
  while (position < fileSize) {
    const at = `blob ${blobs.length + 1} (byte ${position})`;
    if (position + 4 > fileSize) throw new OsmFormatError(`truncated PBF file: ${at} has no complete header length`);
    await handle.read(lengthBytes, 0, 4, position);
    const headerSize = lengthBytes.readUInt32BE(0);
    if (headerSize === 0 || headerSize > MAX_HEADER_SIZE) {
      throw new OsmFormatError(`not an OSM PBF file: ${at} declares a header of ${headerSize} bytes`);
    }
    if (position + 4 + headerSize > fileSize) throw new OsmFormatError(`truncated PBF file: ${at} header is cut off`);
    const header = Buffer.alloc(headerSize);
    await handle.read(header, 0, headerSize, position + 4);
    const { type, size } = readBlobHeader(header, at);
    if (blobs.length === 0 && type !== 'OSMHeader') {
      throw new OsmFormatError(`not an OSM PBF file: the first blob is '${type}', not 'OSMHeader'`);
    }
    const offset = position + 4 + headerSize;
    if (offset + size > fileSize) {
      throw new OsmFormatError(
        `truncated PBF file: ${at} needs ${size} bytes, the file ends after ${fileSize - offset}`,
      );
    }
    blobs.push({ type, offset, size });
    position = offset + size;
  }
  if (blobs.length === 0) throw new OsmFormatError('empty PBF file');
  return blobs;
}

function readBlobHeader(header: Buffer, at: string): { type: string; size: number } {
  let type: string | null = null;
  let size = -1;
  try {
    const reader = new ProtoReader(header);
    while (!reader.done) {
      const key = reader.varint();
      if (key >>> 3 === 1 && (key & 7) === 2) type = reader.string();
      else if (key >>> 3 === 3 && (key & 7) === 0) size = reader.varint();
      else reader.skip(key & 7);
    }
  } catch (error) {
    if (!(error instanceof OsmFormatError)) throw error;
    throw new OsmFormatError(`not an OSM PBF file: ${at} header is not a BlobHeader (${error.message})`);
  }
  if (type === null || size < 0 || size > MAX_BLOB_SIZE) {
    throw new OsmFormatError(`not an OSM PBF file: ${at} header is not a valid BlobHeader`);
  }
  return { type, size };
}

/** Reads one blob and returns its data, inflated. */
export async function readBlob(handle: FileHandle, blob: BlobLocation): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(blob.size);
  const { bytesRead } = await handle.read(bytes, 0, blob.size, blob.offset);
  if (bytesRead < blob.size) throw new OsmFormatError(`truncated PBF file: blob at byte ${blob.offset} is cut off`);
  let raw: Uint8Array | null = null;
  let zlib: Uint8Array | null = null;
  let rawSize = -1;
  let compression: string | null = null;
  const reader = new ProtoReader(bytes);
  while (!reader.done) {
    const key = reader.varint();
    const field = key >>> 3;
    if (field === 1) raw = reader.bytes();
    else if (field === 2) rawSize = reader.varint();
    else if (field === 3) zlib = reader.bytes();
    else {
      compression = ({ 4: 'lzma', 5: 'bzip2', 6: 'lz4', 7: 'zstd' } as Record<number, string>)[field] ?? compression;
      reader.skip(key & 7);
    }
  }
  if (raw) return Buffer.from(raw.buffer, raw.byteOffset, raw.length);
  if (!zlib) {
    throw new OsmFormatError(
      compression
        ? `PBF blob at byte ${blob.offset} uses ${compression} compression; only zlib and uncompressed blobs are supported`
        : `PBF blob at byte ${blob.offset} holds no data`,
    );
  }
  let data: Buffer;
  try {
    data = await inflate(zlib);
  } catch (error) {
    throw new OsmFormatError(`bad zlib data in the PBF blob at byte ${blob.offset}: ${(error as Error).message}`);
  }
  if (rawSize >= 0 && data.length !== rawSize) {
    throw new OsmFormatError(`PBF blob at byte ${blob.offset} inflates to ${data.length} bytes, not ${rawSize}`);
  }
  return data;
}

/** The blobs' data in order, inflating up to READ_AHEAD of them while the caller decodes. */
export async function* readBlobs(
  handle: FileHandle,
  blobs: readonly BlobLocation[],
): AsyncGenerator<{ blob: BlobLocation; data: Buffer }> {
  const pending: Promise<Buffer>[] = [];
  let next = 0;
  const fill = () => {
    while (pending.length < READ_AHEAD && next < blobs.length) {
      const reading = readBlob(handle, blobs[next++] as BlobLocation);
      // Abandoned when the caller stops early; its error is seen when it is awaited.
      reading.catch(() => {});
      pending.push(reading);
    }
  };
  for (let i = 0; i < blobs.length; i++) {
    fill();
    const data = await (pending.shift() as Promise<Buffer>);
    yield { blob: blobs[i] as BlobLocation, data };
  }
}

const SUPPORTED_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes']);

/** Checks the OSMHeader block's required features (osmformat.proto's HeaderBlock, field 4). */
export function checkHeaderBlock(data: Buffer): void {
  const reader = new ProtoReader(data);
  while (!reader.done) {
    const key = reader.varint();
    if (key >>> 3 === 4) {
      const feature = reader.string();
      if (!SUPPORTED_FEATURES.has(feature)) {
        throw new OsmFormatError(`the PBF file requires the feature '${feature}', which is not supported`);
      }
    } else reader.skip(key & 7);
  }
}
