import { expect } from 'chai';
import fc from 'fast-check';
import { sql } from 'kysely';
import { occupiedMs } from '../../src/domain/booking/occupied-range.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/** A new seed each run; PROPERTY_SEED=<n> replays one (a failure names its seed). */
const propertySeed = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : Date.now() % 2_147_483_647;
const from2020 = Date.UTC(2020, 0, 1);

describe('the occupied range: one rule in TypeScript and its SQL twin', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.destroy());

  it('occupiedMs and booking_occupied_range (migration 0018) give the same range for any times and buffers', async () => {
    const cases = fc.sample(
      fc.record({
        startMs: fc.integer({ min: from2020, max: from2020 + 10 * 365 * 86_400_000 }),
        lengthMs: fc.integer({ min: 1, max: 7 * 86_400_000 }),
        bufferBeforeMinutes: fc.integer({ min: 0, max: 1440 }),
        bufferAfterMinutes: fc.integer({ min: 0, max: 1440 }),
      }),
      { numRuns: 200, seed: propertySeed },
    );
    const rows = (
      await sql<{ i: number; lower_ms: string; upper_ms: string }>`
        select c.i, floor(extract(epoch from lower(r)) * 1000)::bigint as lower_ms, floor(extract(epoch from upper(r)) * 1000)::bigint as upper_ms
        from jsonb_array_elements(${JSON.stringify(cases)}::jsonb) with ordinality as e(c, i)
        cross join lateral (select e.i - 1 as i) c
        cross join lateral (select booking_occupied_range(
          'epoch'::timestamptz + (e.c->>'startMs')::bigint * interval '1 millisecond',
          'epoch'::timestamptz + ((e.c->>'startMs')::bigint + (e.c->>'lengthMs')::bigint) * interval '1 millisecond',
          (e.c->>'bufferBeforeMinutes')::integer, (e.c->>'bufferAfterMinutes')::integer) as r) o
        order by c.i`.execute(database.db)
    ).rows;
    expect(rows, `seed ${propertySeed}`).to.have.length(cases.length);
    for (const row of rows) {
      const c = cases[row.i]!;
      const expected = occupiedMs(c.startMs, c.startMs + c.lengthMs, c);
      expect({ startMs: Number(row.lower_ms), endMs: Number(row.upper_ms) }, `seed ${propertySeed}, case ${JSON.stringify(c)}`).to.deep.equal(expected);
    }
  });
});
