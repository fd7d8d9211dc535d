import { Writable } from 'node:stream';

/** A stream that keeps what is written to it: a script's stdout or stderr, run in-process. */
export function collected() {
  const chunks: string[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(chunk.toString('utf8')), done()) });
  return { stream, text: () => chunks.join('') };
}
