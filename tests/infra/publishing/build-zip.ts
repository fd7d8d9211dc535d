import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * One entry of a fixture archive. `declaredSize` and `crc` lie about the content, as a crafted
 * archive can; `deflated` is a ready deflate stream stored as the entry's content (method 8);
 * `method` and `flags` override what the entry says it is.
 */
export type ZipEntryFixture = { name: string; data?: Buffer; deflate?: boolean; deflated?: Buffer; declaredSize?: number; crc?: number; method?: number; flags?: number };

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

/**
 * A ZIP written byte by byte (stored or deflated entries, no ZIP64), so that tests can build what
 * no well-behaved library writes: traversal paths, bombs, lies.
 */
export function buildZip(entries: ZipEntryFixture[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = entry.data ?? Buffer.alloc(0);
    const body = entry.deflated ?? (entry.deflate ? deflateRawSync(data) : data);
    const method = entry.method ?? (entry.deflate || entry.deflated ? 8 : 0);
    const size = entry.declaredSize ?? data.length;
    const crc = entry.crc ?? crc32(data);
    const common = [u16(20), u16(entry.flags ?? 0x0800), u16(method), u16(0), u16(0x21), u32(crc), u32(body.length), u32(size), u16(name.length), u16(0)];
    const local = Buffer.concat([u32(0x04034b50), ...common, name, body]);
    centrals.push(Buffer.concat([u32(0x02014b50), u16(20), ...common, u16(0), u16(0), u16(0), u32(0), u32(offset), name]));
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(entries.length), u16(entries.length), u32(directory.length), u32(offset), u16(0)]);
  return Buffer.concat([...locals, directory, end]);
}

/** A valid one-entry archive of exactly `bytes` bytes (its single stored entry fills the rest). */
export function zipOfSize(bytes: number): Buffer {
  const name = 'app.bin';
  const overhead = 30 + 46 + 22 + 2 * name.length;
  const zip = buildZip([{ name, data: Buffer.alloc(bytes - overhead, 7) }]);
  if (zip.length !== bytes) throw new Error(`zipOfSize: built ${zip.length} bytes, wanted ${bytes}`);
  return zip;
}

/** A small, ordinary app package. */
export const smallZip = () =>
  buildZip([
    { name: 'manifest.json', data: Buffer.from('{"name":"notes"}') },
    { name: 'app/index.html', data: Buffer.from('<!doctype html><title>Notes</title>'.repeat(20)), deflate: true },
  ]);

const MiB = 1024 * 1024;

/**
 * A deflate stream of `mebibytes` MiB of zeros, about 1 KiB per MiB, built without compressing it
 * all: one fully flushed MiB repeated (each copy is byte-aligned and refers only to itself), then
 * an empty final block.
 */
export function deflatedZeros(mebibytes: number): Buffer {
  const oneMiB = deflateRawSync(Buffer.alloc(MiB), { finishFlush: constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array<Buffer>(mebibytes).fill(oneMiB), deflateRawSync(Buffer.alloc(0))]);
}

/** The crafted package of issue 9: about 1.07 MiB, one entry that inflates to 1,100 MiB while both headers declare 1 KiB. */
export const lyingZip = (mebibytes = 1100) => buildZip([{ name: 'app.bin', deflated: deflatedZeros(mebibytes), declaredSize: 1024 }]);
