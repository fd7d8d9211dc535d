/** An integer JSON.stringify writes as it stands (up to 15 digits: exact as a double); `-0` it writes as `0`. */
const plainInteger = /^(?:0|-?[1-9]\d{0,14})$/;
const jsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

// The scanner's text and place, and the first backslash at or after a string being read (the
// text's length when none is left: most texts have none, and then no string needs a second look).
// Module state rather than an object passed down, for speed.
let text = '';
let at = 0;
let backslash = 0;

/** Whether the text from `from` to `to` holds a backslash. */
function hasBackslash(from: number, to: number): boolean {
  if (backslash < from) {
    const next = text.indexOf('\\', from);
    backslash = next < 0 ? text.length : next;
  }
  return backslash < to;
}

const invalid = () => new SyntaxError(`not a JSON text at ${at}`);

function skipSpace(): void {
  let c = text.charCodeAt(at);
  while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++at);
}

/** The index after the string that opens at `at`. */
function stringEnd(): number {
  let from = at + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) throw invalid();
    if (!hasBackslash(from, quote)) return quote + 1;
    let before = quote - 1;
    while (text.charCodeAt(before) === 92) before--;
    if ((quote - 1 - before) % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The string at `at` as JSON.stringify writes it; moves past it. */
function readString(): string {
  const start = at;
  at = stringEnd();
  const raw = text.slice(start, at);
  // Without a backslash, PostgreSQL's text of a string is JSON.stringify's (neither escapes anything else).
  return hasBackslash(start, at) ? JSON.stringify(JSON.parse(raw)) : raw;
}

/** The literal `word` when the text holds it at `at` (and moves past it), else undefined. */
function literal(word: string): string | undefined {
  if (!text.startsWith(word, at)) return undefined;
  at += word.length;
  return word;
}

function readScalar(): string {
  const first = text.charCodeAt(at);
  const word = first === 110 ? literal('null') : first === 116 ? literal('true') : first === 102 ? literal('false') : undefined;
  if (word !== undefined) return word;
  const start = at;
  let c = first;
  while (at < text.length && c !== 44 && c !== 93 && c !== 125 && c !== 32 && c !== 10 && c !== 13 && c !== 9) c = text.charCodeAt(++at);
  const token = text.slice(start, at);
  if (plainInteger.test(token)) return token;
  if (!jsonNumber.test(token)) throw invalid();
  return JSON.stringify(Number(token));
}

function readArray(): string {
  at++;
  skipSpace();
  if (text.charCodeAt(at) === 93) {
    at++;
    return '[]';
  }
  let out = '[';
  for (;;) {
    out += readValue();
    skipSpace();
    const c = text.charCodeAt(at++);
    if (c === 93) return `${out}]`;
    if (c !== 44) throw invalid();
    out += ',';
  }
}

/**
 * An object's keys in the order the text gives them; the order canonical JSON writes them in (the
 * members by their place in the text); and what is written before each of those values (`"key":`,
 * after a comma but the first). Events of a kind share a few shapes, so the sort is done once per
 * shape, not once per object.
 */
type Shape = { keys: string[]; order: number[]; written: string[] };

/**
 * By a hash of the keys' lengths and first and last characters; each entry is checked against the
 * keys found, character by character. Bounded: data may carry keys of its own. Not a boundedCache:
 * the verify-log workers load only the driver and the verification, and a lookup per object of
 * the log is the hot path that counting would slow.
 */
const shapes = new Map<number, Shape>();
const maxShapes = 10_000;

/**
 * The members of the objects being read, the innermost last: where each key's text starts and
 * ends (quotes excluded), and its value's canonical text. Shared by the whole scan rather than
 * arrays made for each object.
 */
const keyStarts: number[] = [];
const keyEnds: number[] = [];
const values: string[] = [];

function sameKeys(shape: Shape, base: number, count: number): boolean {
  if (shape.keys.length !== count) return false;
  for (let i = 0; i < count; i++) {
    const key = shape.keys[i]!;
    const start = keyStarts[base + i]!;
    if (keyEnds[base + i]! - start !== key.length || !text.startsWith(key, start)) return false;
  }
  return true;
}

function newShape(base: number, count: number): Shape {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) keys.push(text.slice(keyStarts[base + i], keyEnds[base + i]));
  const order = keys.map((_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : 1));
  return { keys, order, written: order.map((member, i) => `${i === 0 ? '' : ','}"${keys[member]}":`) };
}

/** An object whose keys have an escape: sorted by their values, without a shape. */
function escapedObject(base: number, count: number): string {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) keys.push(text.slice(keyStarts[base + i]! - 1, keyEnds[base + i]! + 1));
  const decoded = keys.map((key) => JSON.parse(key) as string);
  const order = keys.map((_, i) => i).sort((a, b) => (decoded[a]! < decoded[b]! ? -1 : 1));
  return `{${order.map((i) => `${JSON.stringify(decoded[i])}:${values[base + i]}`).join(',')}}`;
}

function readObject(): string {
  at++;
  skipSpace();
  if (text.charCodeAt(at) === 125) {
    at++;
    return '{}';
  }
  // This object's members sit from `base` on; a nested object's are pushed and taken off while its value is read.
  const base = values.length;
  let hash = 0;
  let escaped = false;
  for (;;) {
    skipSpace();
    if (text.charCodeAt(at) !== 34) throw invalid();
    const start = at + 1;
    at = stringEnd();
    const end = at - 1;
    escaped ||= hasBackslash(start, end);
    hash = (Math.imul(hash, 31) + (end - start) * 7919 + text.charCodeAt(start) * 131 + text.charCodeAt(end - 1)) | 0;
    skipSpace();
    if (text.charCodeAt(at++) !== 58) throw invalid();
    const value = readValue();
    keyStarts.push(start);
    keyEnds.push(end);
    values.push(value);
    skipSpace();
    const c = text.charCodeAt(at++);
    if (c === 125) break;
    if (c !== 44) throw invalid();
  }
  const count = values.length - base;
  const out = escaped ? escapedObject(base, count) : withShape(base, count, hash);
  keyStarts.length = base;
  keyEnds.length = base;
  values.length = base;
  return out;
}

/** The object whose members sit from `base` on, written in canonical order (its shape's, sorted once). */
function withShape(base: number, count: number, hash: number): string {
  let shape = shapes.get(hash);
  if (!shape || !sameKeys(shape, base, count)) {
    shape = newShape(base, count);
    if (shapes.size < maxShapes) shapes.set(hash, shape);
  }
  const { order, written } = shape;
  let out = '{';
  for (let i = 0; i < count; i++) out += written[i]! + values[base + order[i]!]!;
  return `${out}}`;
}

function readValue(): string {
  skipSpace();
  const c = text.charCodeAt(at);
  if (c === 123) return readObject();
  if (c === 91) return readArray();
  if (c === 34) return readString();
  return readScalar();
}

/**
 * `canonicalJson(JSON.parse(json))` (hash-chain.ts) written straight from the text, without
 * building the value: keys sorted by UTF-16 code units, no whitespace, numbers as JSON.stringify
 * writes them. For the text PostgreSQL gives of a jsonb value (keys by length, then bytes, with
 * spaces between), which verify-log canonicalises for every event of the log; strings without a
 * backslash are copied as they stand (PostgreSQL and JSON.stringify escape the same characters).
 */
export function canonicalJsonOfText(json: string): string {
  text = json;
  at = 0;
  backslash = -1;
  try {
    const out = readValue();
    skipSpace();
    if (at !== text.length) throw invalid();
    return out;
  } finally {
    text = '';
    keyStarts.length = 0;
    keyEnds.length = 0;
    values.length = 0;
  }
}
