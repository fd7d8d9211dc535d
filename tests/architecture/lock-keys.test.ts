import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { blackoutLockKeyPrefix, notifyLockKeyPrefix, occupationLockKeyPrefix, poolLockKeyPrefix, quotaLockKeyPrefix } from '../../src/infra/db/lock-keys.js';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const migration = (number: string) => {
  const folder = join(src, 'infra/db/migrations');
  const file = readdirSync(folder).find((name) => name.startsWith(`${number}-`));
  if (!file) throw new Error(`no migration ${number}`);
  return readFileSync(join(folder, file), 'utf8');
};

describe('advisory-lock keys (src/infra/db/lock-keys.ts)', () => {
  for (const [number, name, prefix] of [
    ['0009', 'notifyLockKeyPrefix', notifyLockKeyPrefix],
    ['0019', 'blackoutLockKeyPrefix', blackoutLockKeyPrefix],
    ['0027', 'quotaLockKeyPrefix', quotaLockKeyPrefix],
    ['0031', 'poolLockKeyPrefix', poolLockKeyPrefix],
    ['0033', 'occupationLockKeyPrefix', occupationLockKeyPrefix],
  ] as const) {
    it(`migration ${number} builds its key in SQL from ${name} and names it`, () => {
      const text = migration(number);
      expect(text).to.contain(`'${prefix}' ||`);
      expect(text).to.contain(name);
    });
  }

  it('no other file of src spells a lock key or hashes one itself', () => {
    const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.startsWith('infra/db/migrations/') && f !== 'infra/db/lock-keys.ts');
    const spelled = files.filter((f) => /['`]workspace-booking:|hashtext(extended)?\(\$\{`/.test(readFileSync(join(src, f), 'utf8')));
    expect(spelled).to.deep.equal([]);
  });
});
