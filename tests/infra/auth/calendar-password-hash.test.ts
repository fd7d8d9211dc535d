import { scryptSync } from 'node:crypto';
import { expect } from 'chai';
import { calendarPasswordScrypt, hashCalendarPassword, verifyCalendarPassword } from '../../../src/infra/auth/calendar-password-hash.js';
import { couldBeCalendarPassword, newCalendarPasswordSecret, newUsernameSuffix } from '../../../src/infra/auth/calendar-password-secret.js';

const phc = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
const unpadded = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

describe('calendar password secrets', () => {
  it('carry 192 random bits after wbdav_, never the same twice', () => {
    const secrets = Array.from({ length: 200 }, newCalendarPasswordSecret);
    for (const secret of secrets) {
      expect(secret).to.match(/^wbdav_[A-Za-z0-9_-]{32}$/);
      expect(Buffer.from(secret.slice(6), 'base64url')).to.have.length(24);
      expect(couldBeCalendarPassword(secret)).to.equal(true);
    }
    expect(new Set(secrets).size).to.equal(200);
    expect(couldBeCalendarPassword(`${secrets[0]}x`)).to.equal(false);
  });

  it('give usernames 12 lowercase base32 characters of suffix', () => {
    const suffixes = Array.from({ length: 200 }, newUsernameSuffix);
    for (const suffix of suffixes) expect(suffix).to.match(/^[a-z2-7]{12}$/);
    expect(new Set(suffixes).size).to.equal(200);
  });
});

describe('calendar password hashes', function () {
  this.timeout(30_000);

  it('are salted scrypt with their parameters written beside the key, and hold nothing of the password', async () => {
    const password = newCalendarPasswordSecret();
    const [one, two] = await Promise.all([hashCalendarPassword(password), hashCalendarPassword(password)]);
    const match = phc.exec(one);
    expect(match, one).to.not.equal(null);
    expect(match!.slice(1, 4).map(Number)).to.deep.equal([calendarPasswordScrypt.ln, calendarPasswordScrypt.r, calendarPasswordScrypt.p]);
    expect(calendarPasswordScrypt.ln).to.be.at.least(15);
    expect(Buffer.from(match![4]!, 'base64')).to.have.length(16);
    // The key is scrypt of the password with that salt and those parameters, as any scrypt computes it.
    const salt = Buffer.from(match![4]!, 'base64');
    expect(match![5]).to.equal(unpadded(scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 })));
    expect(two).to.not.equal(one);
    expect(one).to.not.include(password.slice(6));
  });

  it('verify the password they were made from and nothing else', async () => {
    const password = newCalendarPasswordSecret();
    const stored = await hashCalendarPassword(password);
    expect(await verifyCalendarPassword(password, stored)).to.equal(true);
    expect(await verifyCalendarPassword(newCalendarPasswordSecret(), stored)).to.equal(false);
    expect(await verifyCalendarPassword(`${password} `, stored)).to.equal(false);
  });

  it('are checked with the parameters they carry (older, cheaper ones too) and refused when those would cost too much or the form is unknown', async () => {
    const salt = Buffer.from('0123456789abcdef');
    const key = (ln: number, r: number) => unpadded(scryptSync('wbdav_old', salt, 32, { N: 2 ** ln, r, p: 1 }));
    expect(await verifyCalendarPassword('wbdav_old', `$scrypt$ln=10,r=8,p=1$${unpadded(salt)}$${key(10, 8)}`)).to.equal(true);
    expect(await verifyCalendarPassword('wbdav_old', `$scrypt$ln=22,r=8,p=1$${unpadded(salt)}$${key(10, 8)}`)).to.equal(false);
    expect(await verifyCalendarPassword('wbdav_old', `$scrypt$ln=10,r=8,p=9$${unpadded(salt)}$${key(10, 8)}`)).to.equal(false);
    expect(await verifyCalendarPassword('wbdav_old', 'wbdav_old')).to.equal(false);
    expect(await verifyCalendarPassword('wbdav_old', `$argon2id$v=19$m=65536,t=3,p=4$${unpadded(salt)}$${key(10, 8)}`)).to.equal(false);
  });
});
