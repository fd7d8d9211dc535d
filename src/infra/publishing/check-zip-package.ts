import yauzl, { type Entry } from 'yauzl';
import { unsupportedMediaType } from '../../domain/domain-error.js';
import { zipEntryCountRefusal, zipEntryRefusal, zipFileRefusal, type ZipTotals } from '../../domain/publishing/zip-refusals.js';
import { inflatedEntryRefusal } from './inflated-entry-refusal.js';

const unreadable = (error: unknown) => `the archive is not a readable ZIP: ${error instanceof Error ? error.message : String(error)}`;

/**
 * Judges every entry's declared path and size first, from the central directory alone (so a
 * declared bomb costs nothing), then inflates the entries one at a time and checks each against
 * what it declared. Stops at the first refusal; no inflated content is kept.
 */
async function archiveRefusal(bytes: Buffer): Promise<string | null> {
  let zipfile: yauzl.ZipFile;
  try {
    // autoClose off: the entries are read again after the directory's end.
    zipfile = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false });
  } catch (error) {
    return unreadable(error);
  }
  try {
    const countRefusal = zipEntryCountRefusal(zipfile.entryCount);
    if (countRefusal) return countRefusal;
    const totals: ZipTotals = { entries: 0, uncompressedBytes: 0 };
    const entries: Entry[] = [];
    for await (const entry of zipfile.eachEntry()) {
      totals.entries += 1;
      totals.uncompressedBytes += entry.uncompressedSize;
      const refusal = zipEntryRefusal({ name: entry.fileName, uncompressedSize: entry.uncompressedSize }, totals);
      if (refusal) return refusal;
      entries.push(entry);
    }
    for (const entry of entries) {
      const refusal = await inflatedEntryRefusal(zipfile, bytes, entry);
      if (refusal) return refusal;
    }
    return null;
  } catch (error) {
    return unreadable(error);
  } finally {
    zipfile.close();
  }
}

/** Extension, magic bytes, then a readable archive within the bounds whose entries inflate to what they declare; refused with 415. */
export async function checkZipPackage(filename: string, bytes: Buffer): Promise<void> {
  const refusal = zipFileRefusal(filename, bytes) ?? (await archiveRefusal(bytes));
  if (refusal) throw unsupportedMediaType(refusal);
}
