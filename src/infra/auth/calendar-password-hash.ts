import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt's cost: N = 2^15, r = 8, p = 1 (32 MiB and some tens of milliseconds per check), the
 * parameters RFC 7914 and OWASP give for interactive logins. They are written into every hash, so
 * raising them later leaves the passwords hashed before still verifiable.
 */
export const calendarPasswordScrypt = { ln: 15, r: 8, p: 1 } as const;
const saltBytes = 16;
const keyBytes = 32;

/** Bounds on parameters read back from a stored hash: no row makes a check take more than 128 MiB or 4 passes. */
const maxScryptBytes = 128 * 1024 * 1024;
const maxP = 4;

/** The stored form, PHC string format: `$scrypt$ln=15,r=8,p=1$<salt>$<key>` (base64, unpadded). */
const phcPattern = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

type ScryptCost = { ln: number; r: number; p: number };

function derive(password: string, salt: Buffer, cost: ScryptCost, length: number): Promise<Buffer> {
  const N = 2 ** cost.ln;
  // Node refuses above 32 MiB by default, which is exactly what N = 2^15, r = 8 takes.
  const options: ScryptOptions = { N, r: cost.r, p: cost.p, maxmem: 2 * 128 * N * cost.r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key))));
}

const unpadded = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/** A new salted scrypt hash of `password` with calendarPasswordScrypt, as the string to store. */
export async function hashCalendarPassword(password: string): Promise<string> {
  const salt = randomBytes(saltBytes);
  const key = await derive(password, salt, calendarPasswordScrypt, keyBytes);
  const { ln, r, p } = calendarPasswordScrypt;
  return `$scrypt$ln=${ln},r=${r},p=${p}$${unpadded(salt)}$${unpadded(key)}`;
}

/** Whether `password` is the one `stored` (hashCalendarPassword's form) was made from; false for a stored value of any other form. */
export async function verifyCalendarPassword(password: string, stored: string): Promise<boolean> {
  const match = phcPattern.exec(stored);
  if (!match) return false;
  const cost = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (cost.ln < 1 || cost.r < 1 || cost.p < 1 || cost.p > maxP || 128 * 2 ** cost.ln * cost.r > maxScryptBytes) return false;
  const expected = Buffer.from(match[5]!, 'base64');
  const key = await derive(password, Buffer.from(match[4]!, 'base64'), cost, expected.length);
  return timingSafeEqual(key, expected);
}
