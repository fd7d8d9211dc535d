import { expect } from 'chai';
import { publishLimits } from '../../../src/domain/publishing/publish-limits.js';
import {
  zipEntryCountRefusal,
  zipEntryInflationRefusal,
  zipEntryMethodRefusal,
  zipEntryRefusal,
  zipFileRefusal,
} from '../../../src/domain/publishing/zip-refusals.js';

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

describe('what an inflated ZIP entry must match', () => {
  const entry = { name: 'app.js', compressionMethod: 8, encrypted: false, uncompressedSize: 100, crc32: 0xcafebabe };

  it('takes an entry that inflates to exactly its declared size and CRC-32', () => {
    expect(zipEntryInflationRefusal(entry, { bytes: 100, crc32: 0xcafebabe })).to.equal(null);
    // zlib's crc32 answers an unsigned number, a header read signed would not: both compare as unsigned.
    expect(zipEntryInflationRefusal(entry, { bytes: 100, crc32: 0xcafebabe | 0 })).to.equal(null);
  });

  it('refuses more or fewer bytes than declared, and another CRC-32', () => {
    expect(zipEntryInflationRefusal(entry, { bytes: 101, crc32: 0xcafebabe })).to.match(/inflates past its declared size of 100 bytes/);
    expect(zipEntryInflationRefusal(entry, { bytes: 99, crc32: 0xcafebabe })).to.match(/inflates to 99 bytes, not its declared 100/);
    expect(zipEntryInflationRefusal(entry, { bytes: 100, crc32: 0xcafebabf })).to.match(/fails its CRC-32 check/);
  });

  it('inflates only stored and deflated entries, never encrypted ones', () => {
    expect(zipEntryMethodRefusal({ ...entry, compressionMethod: 0 })).to.equal(null);
    expect(zipEntryMethodRefusal(entry)).to.equal(null);
    expect(zipEntryMethodRefusal({ ...entry, compressionMethod: 14 })).to.match(/compression method 14/);
    expect(zipEntryMethodRefusal({ ...entry, encrypted: true })).to.match(/encrypted entry "app.js"/);
  });
});
