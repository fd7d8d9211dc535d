import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { ensureDevSigningKey } from '../../../src/infra/auth/dev-signing-key.js';

const run = promisify(execFile);
const printKid = `import { ensureDevSigningKey } from './src/infra/auth/dev-signing-key.ts'; console.log(ensureDevSigningKey(process.argv[1]).kid);`;

describe('development signing key', function () {
  this.timeout(60_000);
  let dataDir: string;
  beforeEach(async () => (dataDir = await mkdtemp(path.join(tmpdir(), 'dev-key-'))));
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('is one pair for every process that starts at once on a new DATA_DIR', async () => {
    const kids = await Promise.all(Array.from({ length: 4 }, () => run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', printKid, dataDir]).then((r) => r.stdout.trim())));
    expect(new Set(kids).size, kids.join(' ')).to.equal(1);
    expect(ensureDevSigningKey(dataDir).kid).to.equal(kids[0]);
  });

  it('signs tokens that its public half, also written to public.pem, verifies', async () => {
    const key = ensureDevSigningKey(dataDir);
    const token = jwt.sign({ sub: 'someone' }, key.privateKeyPem, { algorithm: 'RS256' });
    expect((jwt.verify(token, key.publicKeyPem) as { sub: string }).sub).to.equal('someone');
    expect(await readFile(path.join(dataDir, 'dev-keys', 'public.pem'), 'utf8')).to.equal(key.publicKeyPem);
  });
});
