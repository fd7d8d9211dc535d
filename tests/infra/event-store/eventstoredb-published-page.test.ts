import { randomUUID } from 'node:crypto';
import { BACKWARDS, END, START, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import { expect } from 'chai';
import { readPublishedPage } from '../../../src/infra/event-store/eventstoredb-published-page.js';
import { booking } from '../../domain/booking/booking-fixtures.js';

type Logged = { id: string; commit: bigint; prepare: bigint };

/**
 * `$all` with an explicit transaction of the legacy TCP API in the middle: its two events share the
 * commit position of their commit record, which lies after both prepares. readAll answers as the
 * server does: forwards from a position, every event at or after it in (commit, prepare) order.
 */
function logWithExplicitTransaction() {
  const at = (commit: number, prepare = commit): Logged => ({ id: randomUUID(), commit: BigInt(commit), prepare: BigInt(prepare) });
  const log = [at(100), at(400, 200), at(400, 300), at(500)];
  const notBefore = (e: Logged, p: Position) => e.commit > p.commit || (e.commit === p.commit && e.prepare >= p.prepare);
  const client = {
    readAll({ fromPosition = START, direction }: { fromPosition?: typeof START | typeof END | Position; direction?: string; maxCount?: bigint }) {
      if (direction === BACKWARDS || fromPosition === END) throw new Error('not used here');
      const selected = log.filter((e) => fromPosition === START || notBefore(e, fromPosition));
      return (async function* () {
        for (const e of selected) {
          const data = { booking: booking({ workspace: 'w' }), by: 'x', at: '2030-01-01T00:00:00Z' };
          yield {
            event: {
              id: e.id, type: 'BookingCreated', data, metadata: {}, streamId: 'resource-r', revision: 0n, created: new Date(),
              position: { commit: e.commit, prepare: e.prepare }, isJson: true, contentType: 'application/json',
            },
          };
        }
      })();
    },
  };
  return { log, client: client as unknown as EventStoreDBClient };
}

describe('the audit feed’s pages over EventStoreDB’s $all', () => {
  const read = { names: ['booking.create'], maxCount: 1 };

  it('names a page’s end by commit position and never ends a page inside one commit’s events', async () => {
    const { log, client } = logWithExplicitTransaction();
    const seen: string[] = [];
    const nexts: number[] = [];
    for (let after = 0; ; ) {
      const page = await readPublishedPage(client, { ...read, after });
      if (!page) throw new Error(`after=${after} refused`);
      if (page.events.length === 0) break;
      seen.push(...page.events.map((e) => e.id));
      nexts.push(page.next);
      after = page.next;
    }
    expect(seen).to.deep.equal(log.map((e) => e.id));
    expect(nexts).to.deep.equal([100, 400, 500]);
  });

  it('takes a commit position as the place after an event, and refuses one that names no event', async () => {
    const { client } = logWithExplicitTransaction();
    expect((await readPublishedPage(client, { ...read, after: 400 }))?.next).to.equal(500);
    for (const after of [200, 300, 450, 600]) expect(await readPublishedPage(client, { ...read, after }), String(after)).to.equal(null);
  });
});
