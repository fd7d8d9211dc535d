import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

const block = 512;
const field = (header: Buffer, at: number, length: number) => header.subarray(at, at + length).toString('utf8').replace(/\0.*$/s, '');

/**
 * Unpacks a PGlite dump (`dumpDataDir('gzip')`: a gzipped ustar archive of the data directory, of
 * directories and plain files only) into `dataDir`, without starting PostgreSQL: a second or so,
 * where letting PGlite load it took several times longer.
 */
export async function unpackDataDir(archive: string, dataDir: string): Promise<void> {
  const tar = await promisify(gunzip)(await fs.readFile(archive));
  for (let at = 0; at + block <= tar.length; ) {
    const header = tar.subarray(at, at + block);
    const name = path.posix.join(field(header, 345, 155), field(header, 0, 100));
    if (name === '.' || name === '') break;
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = field(header, 156, 1) || '0';
    const target = path.join(dataDir, path.posix.normalize(`/${name}`));
    if (type === '5') await fs.mkdir(target, { recursive: true });
    else if (type === '0') {
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, tar.subarray(at + block, at + block + size));
    } else throw new Error(`unexpected entry ${name} (type ${type}) in ${archive}`);
    at += block + Math.ceil(size / block) * block;
  }
}
