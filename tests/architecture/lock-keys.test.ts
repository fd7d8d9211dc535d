import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { blackoutLockKeyPrefix, notifyLockKeyPrefix, occupationLockKeyPrefix, poolLockKeyPrefix, quotaLockKeyPrefix } from '../../src/infra/db/lock-keys.js';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const sqlKeys = readFileSync(join(src, 'infra/db/functions/lock-keys.sql'), 'utf8');

describe('advisory-lock keys (src/infra/db/lock-keys.ts)', () => {
  for (const [fn, name, prefix] of [
    ['notify_lock_key', 'notifyLockKeyPrefix', notifyLockKeyPrefix],
    ['blackout_lock_key', 'blackoutLockKeyPrefix', blackoutLockKeyPrefix],
    ['quota_lock_key', 'quotaLockKeyPrefix', quotaLockKeyPrefix],
    ['pool_lock_key', 'poolLockKeyPrefix', poolLockKeyPrefix],
    ['occupation_lock_key', 'occupationLockKeyPrefix', occupationLockKeyPrefix],
  ] as const) {
    it(`functions/lock-keys.sql's ${fn} builds its key from ${name} and names it`, () => {
      const definition = sqlKeys.slice(sqlKeys.indexOf(`-- ${name}:`), sqlKeys.indexOf('$$;', sqlKeys.indexOf(`function ${fn}(`)));
      expect(definition).to.contain(`function ${fn}(`);
      expect(definition).to.contain(`'${prefix}' ||`);
    });
  }

  it('no other SQL function file spells a lock key', () => {
    const folder = join(src, 'infra/db/functions');
    const spelled = readdirSync(folder).filter((f) => f !== 'lock-keys.sql' && readFileSync(join(folder, f), 'utf8').includes("'workspace-booking:"));
    expect(spelled).to.deep.equal([]);
  });

  it('no other file of src spells a lock key or hashes one itself', () => {
    const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.startsWith('infra/db/migrations/') && f !== 'infra/db/lock-keys.ts');
    const spelled = files.filter((f) => /['`]workspace-booking:|hashtext(extended)?\(\$\{`/.test(readFileSync(join(src, f), 'utf8')));
    expect(spelled).to.deep.equal([]);
  });
});
