import { publishLimits } from './publish-limits.js';

/** What the central directory says about one entry. */
export type ZipEntrySummary = { name: string; uncompressedSize: number };

/** Totals of the entries seen so far. */
export type ZipTotals = { entries: number; uncompressedBytes: number };

// A local file header starts every ZIP that has at least one entry; a renamed file of another kind does not.
const localFileHeader = [0x50, 0x4b, 0x03, 0x04];

/** Why the file cannot be an app package judging by its name and first bytes, or null. */
export function zipFileRefusal(filename: string, bytes: Uint8Array): string | null {
  if (!/\.zip$/i.test(filename)) return `file must be a .zip file, got "${filename}"`;
  if (!localFileHeader.every((byte, i) => bytes[i] === byte)) return 'file is not a ZIP archive';
  return null;
}

/** An entry that would land outside the folder it is extracted into. */
function isUnsafePath(name: string): boolean {
  const path = name.replace(/\\/g, '/');
  return path.startsWith('/') || /^[a-z]:/i.test(path) || path.split('/').includes('..') || path.includes('\0');
}

/** Why an archive with this many entries is refused (read from its end record, before any entry), or null. */
export function zipEntryCountRefusal(entries: number): string | null {
  if (entries === 0) return 'the archive is empty';
  return entries > publishLimits.zipEntries ? `the archive has more than ${publishLimits.zipEntries} entries` : null;
}

/** Why the archive is refused once this entry is counted into the totals, or null. */
export function zipEntryRefusal(entry: ZipEntrySummary, totals: ZipTotals): string | null {
  if (isUnsafePath(entry.name)) return `the archive has an unsafe entry path "${entry.name}"`;
  const countRefusal = zipEntryCountRefusal(totals.entries);
  if (countRefusal) return countRefusal;
  if (totals.uncompressedBytes > publishLimits.zipUncompressedBytes) {
    return `the archive expands to more than ${publishLimits.zipUncompressedBytes / (1024 * 1024)} MiB`;
  }
  return null;
}

/** What the central directory promises about one entry's content. */
export type ZipEntryDeclaration = { name: string; compressionMethod: number; encrypted: boolean; uncompressedSize: number; crc32: number };

/** What inflating one entry to its end gave. */
export type ZipEntryInflation = { bytes: number; crc32: number };

const storedMethod = 0;
const deflatedMethod = 8;

/** Why an entry cannot be inflated and checked at all (encrypted, or neither stored nor deflated), or null. */
export function zipEntryMethodRefusal(entry: ZipEntryDeclaration): string | null {
  if (entry.encrypted) return `the archive has an encrypted entry "${entry.name}"`;
  if (entry.compressionMethod !== storedMethod && entry.compressionMethod !== deflatedMethod) {
    return `the archive's entry "${entry.name}" uses compression method ${entry.compressionMethod}; only stored and deflated entries are accepted`;
  }
  return null;
}

/** Why an entry is refused once inflation passes its declared size: said while inflating, before the rest is inflated. */
export function zipEntryOverflowRefusal(entry: ZipEntryDeclaration): string {
  return `the archive's entry "${entry.name}" inflates past its declared size of ${entry.uncompressedSize} bytes`;
}

/** Why an entry is refused once fully inflated (fewer bytes than declared, or a CRC-32 that does not match), or null. */
export function zipEntryInflationRefusal(entry: ZipEntryDeclaration, inflation: ZipEntryInflation): string | null {
  if (inflation.bytes > entry.uncompressedSize) return zipEntryOverflowRefusal(entry);
  if (inflation.bytes < entry.uncompressedSize) {
    return `the archive's entry "${entry.name}" inflates to ${inflation.bytes} bytes, not its declared ${entry.uncompressedSize}`;
  }
  if (inflation.crc32 >>> 0 !== entry.crc32 >>> 0) return `the archive's entry "${entry.name}" fails its CRC-32 check`;
  return null;
}
