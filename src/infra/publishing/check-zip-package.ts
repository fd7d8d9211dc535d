import yauzl, { type Entry } from 'yauzl';
import { unsupportedMediaType } from '../../domain/domain-error.js';
import { zipEntryCountRefusal, zipEntryRefusal, zipFileRefusal, type ZipTotals } from '../../domain/publishing/zip-refusals.js';

/** Reads the central directory entry by entry, without inflating anything, and stops at the first refusal. */
function centralDirectoryRefusal(bytes: Buffer): Promise<string | null> {
  return new Promise((resolve) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (error, zipfile) => {
      if (error || !zipfile) {
        resolve(`the archive is not a readable ZIP: ${error?.message ?? 'no central directory'}`);
        return;
      }
      let settled = false;
      const finish = (refusal: string | null) => {
        if (settled) return;
        settled = true;
        zipfile.close();
        resolve(refusal);
      };
      const countRefusal = zipEntryCountRefusal(zipfile.entryCount);
      if (countRefusal) {
        finish(countRefusal);
        return;
      }
      const totals: ZipTotals = { entries: 0, uncompressedBytes: 0 };
      zipfile.on('entry', (entry: Entry) => {
        totals.entries += 1;
        totals.uncompressedBytes += entry.uncompressedSize;
        const refusal = zipEntryRefusal({ name: entry.fileName, uncompressedSize: entry.uncompressedSize }, totals);
        if (refusal) finish(refusal);
        else zipfile.readEntry();
      });
      zipfile.on('end', () => finish(null));
      zipfile.on('error', (e: Error) => finish(`the archive is not a readable ZIP: ${e.message}`));
      zipfile.readEntry();
    });
  });
}

/** Extension, magic bytes, then a readable central directory within the bounds; refused with 415. */
export async function checkZipPackage(filename: string, bytes: Buffer): Promise<void> {
  const refusal = zipFileRefusal(filename, bytes) ?? (await centralDirectoryRefusal(bytes));
  if (refusal) throw unsupportedMediaType(refusal);
}
