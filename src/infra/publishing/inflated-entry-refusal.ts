import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createInflateRaw, inflateRawSync } from 'node:zlib';
import type { Entry, ZipFile } from 'yauzl';
import {
  zipEntryInflationRefusal,
  zipEntryMethodRefusal,
  zipEntryOverflowRefusal,
  type ZipEntryDeclaration,
  type ZipEntryInflation,
} from '../../domain/publishing/zip-refusals.js';

// zlib's default 16 KiB chunks make 200 MiB cost five times as long; one chunk is also how far past the declared size inflation may get.
const inflateChunkBytes = 256 * 1024;

const storedMethod = 0;

function declarationOf(entry: Entry): ZipEntryDeclaration {
  return {
    name: entry.fileName,
    compressionMethod: entry.compressionMethod,
    encrypted: entry.isEncrypted(),
    uncompressedSize: entry.uncompressedSize,
    crc32: entry.crc32,
  };
}

const cannotInflate = (declared: ZipEntryDeclaration, error: unknown) =>
  `the archive's entry "${declared.name}" cannot be inflated: ${error instanceof Error ? error.message : String(error)}`;

/**
 * An entry that declares at most one chunk is inflated in one call, which stops as soon as the
 * output passes the declared size: a stream per entry would cost more than the inflation for an
 * archive of many small files.
 */
function inflationAtOnce(declared: ZipEntryDeclaration, compressed: Buffer): ZipEntryInflation | string {
  try {
    const inflated = inflateRawSync(compressed, { maxOutputLength: Math.max(1, declared.uncompressedSize) });
    return { bytes: inflated.length, crc32: crc32(inflated) };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') return zipEntryOverflowRefusal(declared);
    return cannotInflate(declared, error);
  }
}

/**
 * Inflates a deflate stream chunk by chunk, counting and checksumming what comes out and keeping
 * none of it. The first chunk past the declared size throws inside the pipeline, which destroys
 * the inflater: a lying entry costs what it inflates up to its declared size, never what it would
 * inflate to. Answers what came out, or the refusal (past the declared size, or not a deflate stream).
 */
async function inflationByChunks(declared: ZipEntryDeclaration, compressed: Buffer): Promise<ZipEntryInflation | string> {
  const result = { bytes: 0, crc32: 0 };
  const check = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      result.bytes += chunk.length;
      // The pipeline may reject with its own abort error rather than this one: the count says which it was.
      if (result.bytes > declared.uncompressedSize) throw new Error('inflated past the declared size');
      result.crc32 = crc32(chunk, result.crc32);
    }
  };
  try {
    await pipeline(Readable.from([compressed], { objectMode: false }), createInflateRaw({ chunkSize: inflateChunkBytes }), check);
  } catch (error) {
    if (result.bytes > declared.uncompressedSize) return zipEntryOverflowRefusal(declared);
    return cannotInflate(declared, error);
  }
  return result;
}

/**
 * Checks one entry's content against what the central directory declares: a stored entry's bytes
 * are checksummed where they lie in the package, a deflated entry is inflated without being kept.
 * The caller bounds the declared sizes' total, so the inflated total is bounded too.
 */
export async function inflatedEntryRefusal(zipfile: ZipFile, packageBytes: Buffer, entry: Entry): Promise<string | null> {
  const declared = declarationOf(entry);
  const methodRefusal = zipEntryMethodRefusal(declared);
  if (methodRefusal) return methodRefusal;
  // yauzl checks that the data lies inside the package.
  const { fileDataStart } = await zipfile.readLocalFileHeaderPromise(entry, { minimal: true });
  const data = packageBytes.subarray(fileDataStart, fileDataStart + entry.compressedSize);
  const result =
    entry.compressionMethod === storedMethod
      ? { bytes: data.length, crc32: crc32(data) }
      : entry.uncompressedSize <= inflateChunkBytes
        ? inflationAtOnce(declared, data)
        : await inflationByChunks(declared, data);
  return typeof result === 'string' ? result : zipEntryInflationRefusal(declared, result);
}
