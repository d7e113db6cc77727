import { crc32, inflateRawSync } from 'node:zlib';

/**
 * Reads one file out of a ZIP archive (the ECB's eurofxref.zip and eurofxref-hist.zip): the
 * end record, the central directory, the entry's local header, then stored or deflated data.
 * Nothing the archive says is trusted blindly: every offset must lie inside the buffer, the
 * declared size must be under the caller's cap, inflating stops at that cap, and the result
 * must have the declared length and CRC-32. ZIP64, encryption and multi-disk archives are
 * refused (the ECB's files need none).
 */
export class ZipFormatError extends Error {
  constructor(message: string) {
    super(`zip: ${message}`);
    this.name = 'ZipFormatError';
  }
}

export interface ZipEntry {
  name: string;
  content: Buffer;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export function readZipEntry(
  archive: Buffer,
  wanted: (name: string) => boolean,
  maxUncompressedBytes: number,
): ZipEntry {
  const end = findEndRecord(archive);
  const entries = archive.readUInt16LE(end + 10);
  const directorySize = archive.readUInt32LE(end + 12);
  const directoryOffset = archive.readUInt32LE(end + 16);
  if (archive.readUInt16LE(end + 4) !== 0 || archive.readUInt16LE(end + 6) !== 0)
    throw new ZipFormatError('multi-disk archives are not supported');
  if (entries === 0xffff || directoryOffset === 0xffffffff)
    throw new ZipFormatError('ZIP64 archives are not supported');
  if (directoryOffset + directorySize > end) throw new ZipFormatError('the central directory lies outside the archive');

  let at = directoryOffset;
  for (let n = 0; n < entries; n += 1) {
    if (at + 46 > end || archive.readUInt32LE(at) !== CENTRAL)
      throw new ZipFormatError('a broken central directory entry');
    const flags = archive.readUInt16LE(at + 8);
    const method = archive.readUInt16LE(at + 10);
    const crc = archive.readUInt32LE(at + 16);
    const compressedSize = archive.readUInt32LE(at + 20);
    const size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const skip = nameLength + archive.readUInt16LE(at + 30) + archive.readUInt16LE(at + 32);
    const localOffset = archive.readUInt32LE(at + 42);
    if (at + 46 + skip > end) throw new ZipFormatError('a central directory entry runs past the directory');
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + skip;
    if (!wanted(name)) continue;

    if (flags & 0x1) throw new ZipFormatError(`${name} is encrypted`);
    if (method !== 0 && method !== 8) throw new ZipFormatError(`${name} uses compression method ${method}`);
    if (size > maxUncompressedBytes)
      throw new ZipFormatError(`${name} declares ${size} bytes, more than the ${maxUncompressedBytes} allowed`);
    if (localOffset + 30 > directoryOffset || archive.readUInt32LE(localOffset) !== LOCAL)
      throw new ZipFormatError(`${name} has no local header where the directory says`);
    const dataStart =
      localOffset + 30 + archive.readUInt16LE(localOffset + 26) + archive.readUInt16LE(localOffset + 28);
    if (dataStart + compressedSize > directoryOffset) throw new ZipFormatError(`${name}'s data runs past the archive`);
    const data = archive.subarray(dataStart, dataStart + compressedSize);
    let content: Buffer;
    try {
      content =
        method === 0 ? Buffer.from(data) : inflateRawSync(data, { maxOutputLength: Math.max(1, maxUncompressedBytes) });
    } catch (error) {
      throw new ZipFormatError(`${name} does not inflate (${(error as Error).message.slice(0, 80)})`);
    }
    if (content.length !== size)
      throw new ZipFormatError(`${name} inflated to ${content.length} bytes, not the declared ${size}`);
    if (crc32(content) !== crc) throw new ZipFormatError(`${name} fails its CRC-32`);
    return { name, content };
  }
  throw new ZipFormatError('the archive holds no matching file');
}

function findEndRecord(archive: Buffer): number {
  const lowest = Math.max(0, archive.length - 22 - 0xffff);
  for (let at = archive.length - 22; at >= lowest; at -= 1) {
    if (archive.readUInt32LE(at) === EOCD && at + 22 + archive.readUInt16LE(at + 20) === archive.length) return at;
  }
  throw new ZipFormatError('no end-of-central-directory record: not a ZIP archive');
}
