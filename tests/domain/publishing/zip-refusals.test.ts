import { expect } from 'chai';
import { publishLimits } from '../../../src/domain/publishing/publish-limits.js';
import { zipEntryCountRefusal, zipEntryRefusal, zipFileRefusal } from '../../../src/domain/publishing/zip-refusals.js';

const zipStart = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]);
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const few = { entries: 1, uncompressedBytes: 10 };

describe('what makes a file a ZIP package', () => {
  it('takes a .zip name (any case) starting with a local file header', () => {
    expect(zipFileRefusal('app.zip', zipStart)).to.equal(null);
    expect(zipFileRefusal('APP.ZIP', zipStart)).to.equal(null);
  });

  it('refuses another extension even with ZIP content', () => {
    expect(zipFileRefusal('app.jar', zipStart)).to.match(/must be a \.zip file/);
    expect(zipFileRefusal('app.zip.exe', zipStart)).to.match(/must be a \.zip file/);
    expect(zipFileRefusal('', zipStart)).to.match(/must be a \.zip file/);
  });

  it('refuses a .zip name on other content: a renamed PNG, an empty file, the end record alone', () => {
    expect(zipFileRefusal('app.zip', png)).to.equal('file is not a ZIP archive');
    expect(zipFileRefusal('app.zip', Buffer.alloc(0))).to.equal('file is not a ZIP archive');
    expect(zipFileRefusal('app.zip', Buffer.from([0x50, 0x4b, 0x05, 0x06]))).to.equal('file is not a ZIP archive');
  });
});

describe('what a ZIP package may contain', () => {
  it('takes ordinary relative paths', () => {
    for (const name of ['index.html', 'assets/app.js', 'a/b/c/', 'dots..in-name.txt', './manifest.json']) {
      expect(zipEntryRefusal({ name, uncompressedSize: 10 }, few), name).to.equal(null);
    }
  });

  it('refuses entries that would land outside the extraction folder', () => {
    for (const name of ['/etc/passwd', '../evil.sh', 'a/../../evil.sh', 'a/..', '..\\evil.bat', 'C:\\Windows\\evil.dll', 'c:/evil', '\\\\server\\share', 'a\0b']) {
      expect(zipEntryRefusal({ name, uncompressedSize: 10 }, few), JSON.stringify(name)).to.match(/unsafe entry path/);
    }
  });

  it('refuses more than 10,000 entries, counted upfront and while reading', () => {
    expect(zipEntryCountRefusal(publishLimits.zipEntries)).to.equal(null);
    expect(zipEntryCountRefusal(publishLimits.zipEntries + 1)).to.match(/more than 10000 entries/);
    expect(zipEntryRefusal({ name: 'x', uncompressedSize: 0 }, { entries: 10_001, uncompressedBytes: 0 })).to.match(/more than 10000 entries/);
  });

  it('refuses an empty archive', () => {
    expect(zipEntryCountRefusal(0)).to.equal('the archive is empty');
  });

  it('refuses an archive expanding past 200 MiB in total', () => {
    const limit = publishLimits.zipUncompressedBytes;
    expect(zipEntryRefusal({ name: 'x', uncompressedSize: 1 }, { entries: 2, uncompressedBytes: limit })).to.equal(null);
    expect(zipEntryRefusal({ name: 'x', uncompressedSize: 1 }, { entries: 2, uncompressedBytes: limit + 1 })).to.match(/expands to more than 200 MiB/);
  });
});
