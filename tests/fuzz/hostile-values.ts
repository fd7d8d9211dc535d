import fc from 'fast-check';

/** JSON text put into a body as it is: numbers JSON.stringify cannot write, nesting it would overflow on. */
export class RawJson {
  constructor(readonly text: string) {}
}

const nested = (levels: number) => new RawJson(`${'['.repeat(levels)}${']'.repeat(levels)}`);
const nestedObjects = (levels: number) => new RawJson(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);

/** Strings PostgreSQL or a library choke on. */
export const hostileString = fc.oneof(
  fc.constantFrom('a\u0000b', '\u0000', '\ud800', 'x\udfffy', '\udc00\ud800', '\ud83d', '%00', "'; drop table events; --", '', ' ', '../..', 'a'.repeat(5000)),
  fc.tuple(fc.string({ maxLength: 6 }), fc.constantFrom('\u0000', '\ud800', '\udfff'), fc.string({ maxLength: 6 })).map((parts) => parts.join('')),
);

/** Numbers beyond what a double holds exactly, or beyond what one holds at all. */
export const hugeNumberText = fc.constantFrom('1e400', '-1e400', '9007199254740993', '99999999999999999999', '1e308', '-0', '2147483648', '-2147483649', '1.5', '0.0000001');

/** Any JSON a body could hold where the schema wants something else. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hugeNumberText.map((text) => new RawJson(text)),
  fc.integer({ min: 65, max: 10_000 }).map(nested),
  fc.integer({ min: 60, max: 70 }).map(nestedObjects),
  fc.constantFrom<unknown>(null, true, false, 0, -1, [], {}, [null], { $ref: '#/x' }, { __proto__: { a: 1 } }, { constructor: { prototype: {} } }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A lone surrogate cannot be percent-encoded as UTF-8: no client can send one in a URL. */
function encodable(text: string): boolean {
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** A query value a client should never send. */
export const hostileQueryValue = fc.oneof(
  hostileString.filter(encodable),
  hugeNumberText,
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '0x10', '1e2', '-1', '0', 'true', '[]', '{}', '{"a":{"$eq":"\u0000"}}', '{"name":"\\ud800"}', 'name||$eq||\u0000'),
);

/** Query keys shaped as objects or nested lists, which qs would turn into objects. */
export const bracketedKey = (name: string) => fc.constantFrom(`${name}[a]`, `${name}[0][b]`, `${name}[]`, `${name}[1]`, `${name}][`, `${name}[__proto__]`, `${name}[a][b][c]`);

/** A path segment as it appears in the URL (already percent-encoded). */
export const hostileSegment = fc.constantFrom('bulk', 'self', 'export', 'released', 'series', 'a%00b', '%00', '%ED%A0%80', '%F0%9F', '%', '%zz', '1e400', '-1', '0', '9007199254740993', '99999999999999999999', 'a'.repeat(300), '%2F', 'null', 'undefined');

/** JSON text with RawJson parts written as they are; lone surrogates travel as \u escapes. */
export function jsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `\u0001raw${raws.length - 1}\u0001`;
    }
    return v;
  });
  return (text ?? 'null').replace(/"\\u0001raw(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!);
}
