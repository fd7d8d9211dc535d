import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createInflateRaw } from 'node:zlib';
import type { Entry, ZipFile } from 'yauzl';
import {
  zipEntryInflationRefusal,
  zipEntryMethodRefusal,
  zipEntryOverflowRefusal,
  type ZipEntryDeclaration,
} from '../../domain/publishing/zip-refusals.js';

function declarationOf(entry: Entry): ZipEntryDeclaration {
  return {
    name: entry.fileName,
    compressionMethod: entry.compressionMethod,
    encrypted: entry.isEncrypted(),
    uncompressedSize: entry.uncompressedSize,
    crc32: entry.crc32,
  };
}

/** The entry's bytes as stored in the archive; inflation is ours, so that the cap below governs it. */
function rawStreamOf(zipfile: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, { decodeFileData: false }, (error, stream) => (error ? reject(error) : resolve(stream)));
  });
}

/**
 * Inflates one entry chunk by chunk, counting and checksumming what comes out and keeping none of
 * it. The first chunk past the declared size throws inside the pipeline, which destroys the
 * inflater: a lying entry costs what it inflates up to its declared size, never what it would
 * inflate to. The caller bounds the declared sizes' total, so the inflated total is bounded too.
 */
export async function inflatedEntryRefusal(zipfile: ZipFile, entry: Entry): Promise<string | null> {
  const declared = declarationOf(entry);
  const methodRefusal = zipEntryMethodRefusal(declared);
  if (methodRefusal) return methodRefusal;
  const inflation = { bytes: 0, crc32: 0 };
  const check = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      inflation.bytes += chunk.length;
      // The pipeline may reject with its own abort error rather than this one: the count says which it was.
      if (inflation.bytes > declared.uncompressedSize) throw new Error('inflated past the declared size');
      inflation.crc32 = crc32(chunk, inflation.crc32);
    }
  };
  try {
    const raw = await rawStreamOf(zipfile, entry);
    if (entry.compressionMethod === 0) await pipeline(raw, check);
    else await pipeline(raw, createInflateRaw(), check);
  } catch (error) {
    if (inflation.bytes > declared.uncompressedSize) return zipEntryOverflowRefusal(declared);
    return `the archive's entry "${declared.name}" cannot be inflated: ${error instanceof Error ? error.message : String(error)}`;
  }
  return zipEntryInflationRefusal(declared, inflation);
}
