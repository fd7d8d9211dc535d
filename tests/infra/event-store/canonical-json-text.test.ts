import { expect } from 'chai';
import { sql } from 'kysely';
import { canonicalJsonOfText } from '../../../src/infra/event-store/canonical-json-text.js';
import { canonicalJson } from '../../../src/infra/event-store/hash-chain.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';

/** A small deterministic generator (mulberry32), so that a failure can be run again. */
function randomOf(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const awkwardStrings = ['', 'a', 'B', 'é', 'ü"', 'back\\slash', 'tab\there', 'line\nfeed', '\u0001\u001f', '\u007f', '\u2028', '😀', '\uff61', 'Grüße 🎉', '10', '9', '__proto__', ' spaced '];
const awkwardNumbers = [0, 1, -1, 1.5, -2e-7, 1e21, 123456789012345, 1234567890123456, 12345678901234567000, 0.1, 1 / 3, Number.MAX_SAFE_INTEGER, 5e-324];

function randomValue(random: () => number, depth: number): unknown {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const kind = depth > 3 ? Math.floor(random() * 4) : Math.floor(random() * 6);
  switch (kind) {
    case 0:
      return pick(awkwardStrings);
    case 1:
      return random() < 0.5 ? pick(awkwardNumbers) : Math.round((random() - 0.5) * 1e6) / (random() < 0.5 ? 1 : 100);
    case 2:
      return pick([true, false, null]);
    case 3:
      return `${pick(awkwardStrings)}${Math.floor(random() * 1000)}`;
    case 4:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 7) }, () => [pick(awkwardStrings) + (random() < 0.5 ? '' : pick(awkwardStrings)), randomValue(random, depth + 1)]));
  }
}

const values = (() => {
  const random = randomOf(33);
  return Array.from({ length: 400 }, () => randomValue(random, 0));
})();

describe('canonical JSON written from a JSON text (verify-log)', () => {
  it('writes what canonicalJson writes of the parsed text, for JSON.stringify’s text', () => {
    for (const value of values) {
      const json = JSON.stringify(value);
      expect(canonicalJsonOfText(json), json).to.equal(canonicalJson(JSON.parse(json)));
    }
  });

  it('writes numbers as JSON.stringify does, whatever their spelling', () => {
    for (const json of ['-0', '1.50', '1E3', '1e+21', '0.0000001', '12345678901234567890', '[1.0, -0.0, 2e-7]']) {
      expect(canonicalJsonOfText(json), json).to.equal(canonicalJson(JSON.parse(json)));
    }
  });

  it('refuses what is no JSON text', () => {
    for (const json of ['', '{', '{"a" 1}', '[1 2]', '"open', 'nul', '0x10', '{"a":1}x']) {
      expect(() => canonicalJsonOfText(json), json).to.throw(SyntaxError);
    }
  });

  describe('on the text PostgreSQL gives of jsonb (keys by length, then bytes; spaces between)', () => {
    let database: TestDatabase;
    before(async function () {
      if (!process.env.DB_HOST) this.skip();
      database = await createTestDatabase();
    });
    after(() => database?.destroy());

    it('writes what canonicalJson writes of the stored value', async () => {
      const texts = [...values.map((value) => JSON.stringify(value)), '{"10": 1, "9": 2, "a": {"\\u00e9": [], "😀": {}, "\\uff61": 1.50}}', '[-0, 1E3, 1e+21]'];
      const { rows } = await sql<{ stored: string }>`select t::jsonb::text as stored from unnest(${texts}::text[]) with ordinality as u(t, i) order by i`.execute(database.db);
      expect(rows).to.have.length(texts.length);
      rows.forEach(({ stored }, i) => expect(canonicalJsonOfText(stored), stored).to.equal(canonicalJson(JSON.parse(texts[i]!))));
    });
  });
});
