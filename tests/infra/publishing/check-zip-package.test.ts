import { expect } from 'chai';
import { publishLimits } from '../../../src/domain/publishing/publish-limits.js';
import { DomainError } from '../../../src/domain/domain-error.js';
import { checkZipPackage } from '../../../src/infra/publishing/check-zip-package.js';
import { buildZip, smallZip, zipOfSize } from './build-zip.js';

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
