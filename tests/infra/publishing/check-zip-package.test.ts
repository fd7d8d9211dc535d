import { crc32 } from 'node:zlib';
import { expect } from 'chai';
import { publishLimits } from '../../../src/domain/publishing/publish-limits.js';
import { DomainError } from '../../../src/domain/domain-error.js';
import { checkZipPackage } from '../../../src/infra/publishing/check-zip-package.js';
import { buildZip, deflatedZeros, lyingZip, smallZip, zipOfSize } from './build-zip.js';

const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

async function refusalOf(filename: string, bytes: Buffer): Promise<string> {
  try {
    await checkZipPackage(filename, bytes);
  } catch (error) {
    expect(error).to.be.instanceOf(DomainError);
    expect((error as DomainError).code).to.equal('unsupported_media_type');
    return (error as Error).message;
  }
  return expect.fail('expected 415');
}

describe('checking an uploaded ZIP', () => {
  it('accepts an ordinary archive, stored or deflated, and one of exactly 10 MiB', async () => {
    await checkZipPackage('notes.zip', smallZip());
    await checkZipPackage('notes.zip', zipOfSize(publishLimits.packageBytes));
  });

  it('refuses a PNG renamed to .zip, and a ZIP under another name', async () => {
    expect(await refusalOf('notes.zip', png)).to.equal('file is not a ZIP archive');
    expect(await refusalOf('notes.png', smallZip())).to.match(/must be a \.zip file/);
  });

  it('refuses an archive whose central directory cannot be read', async () => {
    const zip = smallZip();
    expect(await refusalOf('cut.zip', zip.subarray(0, zip.length - 30))).to.match(/not a readable ZIP/);
    const garbled = Buffer.from(zip);
    garbled.writeUInt32LE(0xdeadbeef, garbled.length - 6);
    expect(await refusalOf('garbled.zip', garbled)).to.match(/not a readable ZIP/);
  });

  it('refuses path traversal and absolute entry paths', async () => {
    for (const name of ['../../etc/cron.d/evil', '/etc/passwd', 'app/../../evil', 'C:/Windows/evil.dll']) {
      const message = await refusalOf('evil.zip', buildZip([{ name: 'ok.txt', data: Buffer.from('ok') }, { name, data: Buffer.from('x') }]));
      expect(message, name).to.match(/unsafe entry path|not a readable ZIP: (invalid relative path|absolute path)/);
    }
  });

  it('refuses more than 10,000 entries before reading them', async () => {
    const many = Array.from({ length: publishLimits.zipEntries + 1 }, (_, i) => ({ name: `f${i}` }));
    expect(await refusalOf('many.zip', buildZip(many))).to.match(/more than 10000 entries/);
    await checkZipPackage('many.zip', buildZip(many.slice(1)));
  });

  it('refuses a ZIP bomb: a few hundred KiB that expand past 200 MiB', async () => {
    const MiB = 1024 * 1024;
    const zeros = Buffer.alloc(MiB);
    const bomb = buildZip(Array.from({ length: 201 }, (_, i) => ({ name: `zeros-${i}.bin`, data: zeros, deflate: true })));
    expect(bomb.length).to.be.below(400 * 1024);
    expect(await refusalOf('bomb.zip', bomb)).to.match(/expands to more than 200 MiB/);
  });

  it('refuses a single entry that declares more than 200 MiB', async () => {
    const liar = buildZip([{ name: 'big.bin', data: Buffer.alloc(1000), deflate: true, declaredSize: 201 * 1024 * 1024 }]);
    expect(await refusalOf('liar.zip', liar)).to.match(/expands to more than 200 MiB/);
  });

  it('refuses an archive with no entries', async () => {
    expect(await refusalOf('empty.zip', buildZip([]))).to.equal('file is not a ZIP archive');
  });
});

describe('inflating an uploaded ZIP while checking it', () => {
  const MiB = 1024 * 1024;

  it('accepts an archive of many small deflated files', async () => {
    await checkZipPackage('many.zip', buildZip(Array.from({ length: 2000 }, (_, i) => ({ name: `src/f${i}.js`, data: Buffer.from(`export const n = ${i};\n`.repeat(20)), deflate: true }))));
  });

  it('accepts entries that inflate to exactly what they declare, up to 200 MiB in all', async () => {
    const [deflated, crc] = [deflatedZeros(1), crc32(Buffer.alloc(MiB))];
    const entries = Array.from({ length: 200 }, (_, i) => ({ name: `zeros-${i}.bin`, deflated, declaredSize: MiB, crc }));
    await checkZipPackage('full.zip', buildZip(entries));
  });

  it('refuses an entry that inflates past its declared size, cutting inflation at that size', async function () {
    // Inflated to its end, this entry (9,000 MiB from 9 MiB) takes tens of seconds; cut at 1 KiB it takes milliseconds.
    this.timeout(5000);
    const liar = lyingZip(9000);
    expect(liar.length).to.be.below(publishLimits.packageBytes);
    expect(await refusalOf('liar.zip', liar)).to.equal(`the archive's entry "app.bin" inflates past its declared size of 1024 bytes`);
    // Declaring more than one inflation chunk, it is inflated as a stream rather than at once.
    const streamed = buildZip([{ name: 'app.bin', deflated: deflatedZeros(9000), declaredSize: MiB }]);
    expect(await refusalOf('liar.zip', streamed)).to.equal(`the archive's entry "app.bin" inflates past its declared size of 1048576 bytes`);
  });

  it('refuses the lying entry among honest ones, and a stored entry longer than it declares', async () => {
    const honest = { name: 'manifest.json', data: Buffer.from('{"name":"notes"}') };
    const liar = { name: 'assets/zeros.bin', deflated: deflatedZeros(3), declaredSize: 2 * MiB };
    expect(await refusalOf('mixed.zip', buildZip([honest, liar, honest]))).to.match(/"assets\/zeros.bin" inflates past its declared size of 2097152 bytes/);
    const storedLiar = buildZip([{ name: 'long.txt', data: Buffer.from('longer than declared'), declaredSize: 4 }]);
    expect(await refusalOf('stored.zip', storedLiar)).to.match(/not a readable ZIP: compressed\/uncompressed size mismatch|inflates past/);
  });

  it('refuses an entry that inflates to fewer bytes than it declares', async () => {
    const short = buildZip([{ name: 'short.bin', deflated: deflatedZeros(1), declaredSize: 2 * MiB }]);
    expect(await refusalOf('short.zip', short)).to.equal(`the archive's entry "short.bin" inflates to 1048576 bytes, not its declared 2097152`);
    const small = buildZip([{ name: 'small.txt', data: Buffer.from('short'), deflate: true, declaredSize: 6 }]);
    expect(await refusalOf('short.zip', small)).to.equal(`the archive's entry "small.txt" inflates to 5 bytes, not its declared 6`);
  });

  it('refuses a CRC-32 that does not match, in a deflated or a stored entry', async () => {
    const data = Buffer.from('<!doctype html><title>Notes</title>');
    for (const deflate of [true, false]) {
      const zip = buildZip([{ name: 'index.html', data, deflate, crc: crc32(data) ^ 1 }]);
      expect(await refusalOf('crc.zip', zip), `deflate ${deflate}`).to.equal(`the archive's entry "index.html" fails its CRC-32 check`);
    }
  });

  it('refuses a deflate stream that is corrupt', async () => {
    for (const declaredSize of [10, 2 * MiB]) {
      const zip = buildZip([{ name: 'broken.bin', deflated: Buffer.from([0xff, 0xff, 0xff, 0xff]), declaredSize }]);
      expect(await refusalOf('broken.zip', zip), `declaring ${declaredSize}`).to.match(/^the archive's entry "broken.bin" cannot be inflated: /);
    }
  });

  it('refuses entries it cannot inflate to check: encrypted, or compressed with another method', async () => {
    const data = Buffer.from('secret');
    expect(await refusalOf('enc.zip', buildZip([{ name: 'a.txt', data, deflate: true, flags: 0x0801 }]))).to.match(/encrypted entry "a.txt"/);
    expect(await refusalOf('bz.zip', buildZip([{ name: 'a.txt', data, method: 12 }]))).to.match(/"a.txt" uses compression method 12/);
  });
});
