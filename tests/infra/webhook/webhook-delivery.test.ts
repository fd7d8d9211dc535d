import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { sql } from 'kysely';
import { startWorkers, type RunningWorkers } from '../../../src/workers/start-workers.js';
import type { WorkerOptions } from '../../../src/workers/worker-options.js';
import { bookingBody, registerZone, setClock } from '../../api/booking/booking-api.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { checkpointPlaced, fastWorkerOptions, waitFor } from '../../workers/worker-test-kit.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const baseKeys = ['id', 'bookableResourceId', 'resourceId', 'resourceType', 'bookerEmail', 'bookerProfileId', 'createdBy', 'startTime', 'endTime', 'status', 'title', 'workspace', 'isSeriesParent', 'recurrenceParentId', 'bundleId', 'calendarUid', 'units'];

describe('webhook delivery', () => {
  let receiver: WebhookReceiver;
  let server: TestServer;
  let workers: RunningWorkers | undefined;
  let day = 0;
  let date: string;

  const run = async (options: Partial<WorkerOptions> = {}) => {
    workers = startWorkers(server.services, { ...fastWorkerOptions, webhookRetryDelaysMs: [100, 200, 400, 800, 1600], ...options });
    await checkpointPlaced(server.services.db, 'webhook-relay');
  };
  const book = async (zoneId: string, start = '09:00', end = '10:00') => {
    const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, `${date}T${start}:00Z`, `${date}T${end}:00Z`) });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  };
  const eventsFor = (bookingId: string) => receiver.received.filter((e) => e.data.id === bookingId);
  const namesFor = (bookingId: string) => eventsFor(bookingId).map((e) => e.event);

  before(async () => {
    receiver = await startWebhookReceiver(secret);
    // Check-in opens 15 minutes before the start: a shorter reminder lead keeps the running worker's
    // reminder out of the checked-in booking's story.
    server = await startTestServer({ WEBHOOK_ENDPOINT: receiver.url, WEBHOOK_SECRET: secret, REMINDER_MINUTES: '5' });
    await registerZone(server, 'zone-a');
    await registerZone(server, 'zone-b');
    await registerZone(server, 'zone-approval', { bookingPolicy: { autoConfirm: false } });
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });
  beforeEach(() => {
    day += 1;
    date = `2031-02-${String(day).padStart(2, '0')}`;
    setClock(server, `${date}T08:00:00Z`);
    receiver.answer = () => 204;
  });
  afterEach(async () => {
    await workers?.stop();
    workers = undefined;
  });

  it('posts every lifecycle event, signed, in the envelope of contract §8 with the extras of its kind', async () => {
    await run();
    const used = await book('zone-a');
    setClock(server, `${date}T08:50:00Z`);
    await server.request('PATCH', `/booking/v1/bookings/${used}/checkin`);
    setClock(server, `${date}T09:30:00Z`);
    await server.request('PATCH', `/booking/v1/bookings/${used}/checkout`);

    setClock(server, `${date}T08:00:00Z`);
    const approved = await book('zone-approval', '11:00', '12:00');
    await server.request('PATCH', `/booking/v1/bookings/${approved}/confirm`);
    await server.request('PATCH', `/booking/v1/bookings/${approved}/cancel`, { body: { reason: 'room needed' } });

    const missed = await book('zone-b', '13:00', '14:00');
    // The running workers fire the timers. The clock moves past the start only once the reminder is
    // out: a reminder decided after the start no longer applies, and is rightly never sent.
    setClock(server, `${date}T12:55:00Z`);
    workers!.wake();
    await waitFor(() => namesFor(missed).includes('booking.reminder'), { what: 'the reminder' });
    setClock(server, `${date}T13:15:00Z`);
    workers!.wake();

    await waitFor(() => eventsFor(used).length === 3 && eventsFor(approved).length === 3 && eventsFor(missed).length === 3, { what: 'nine deliveries' });
    expect(namesFor(used)).to.deep.equal(['booking.create', 'booking.checkin', 'booking.checkout']);
    expect(namesFor(approved)).to.deep.equal(['booking.create', 'booking.confirm', 'booking.cancel']);
    expect(namesFor(missed)).to.deep.equal(['booking.create', 'booking.reminder', 'booking.no_show']);
    expect(receiver.rejected).to.equal(0);

    const [create, checkin, checkout] = eventsFor(used);
    expect(create).to.have.keys('id', 'event', 'timestamp', 'workspace', 'position', 'data');
    expect(create!.workspace).to.equal(server.workspace);
    expect(create!.data).to.have.keys(baseKeys);
    expect(create!.data).to.include({ id: used, resourceId: 'zone-a', resourceType: 'zone', status: 'confirmed', title: 'Sync', workspace: server.workspace });
    expect(checkin!.data).to.include({ checkedInAt: `${date}T08:50:00Z` });
    expect(checkout!.data).to.include({ checkedOutAt: `${date}T09:30:00Z`, status: 'completed' });

    const [, confirm, cancel] = eventsFor(approved);
    expect(confirm!.data).to.include({ confirmedBy: 'user-1', confirmedAt: `${date}T08:00:00Z`, status: 'confirmed' });
    expect(cancel!.data).to.include({ cancelledBy: 'user-1', cancelledAt: `${date}T08:00:00Z`, reason: 'room needed', status: 'cancelled' });

    const [, reminder, noShow] = eventsFor(missed);
    expect(reminder!.data).to.include({ reminderType: 'upcoming' });
    expect(noShow!.data).to.include({ gracePeriodExpiredAt: `${date}T13:15:00Z`, status: 'no_show' });

    for (const attempt of receiver.attempts.filter((a) => a.envelope.data.id === used)) {
      expect(attempt.headers['webhook-id']).to.equal(attempt.envelope.id);
      expect(Number(attempt.headers['webhook-timestamp'])).to.be.closeTo(Date.now() / 1000, 60);
      expect(attempt.headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/=]+$/);
    }
  });

  it('delivers on commit, without waiting for a poll (PostgreSQL: LISTEN/NOTIFY)', async function () {
    if (!server.services.config.database || server.services.config.database.kind !== 'postgres') this.skip();
    // Far longer than the waits below: only the commit notifications can move the workers.
    await run({ pollIntervalMs: 60_000 });
    for (const start of ['09:00', '10:00']) {
      const id = await book('zone-b', start, start.replace(':00', ':30'));
      await waitFor(() => eventsFor(id).length === 1, { what: `the booking.create of ${start}` });
    }
  });

  it('posts one booking.cancel per record of a cancelled series, parent included', async () => {
    await run();
    const created = await server.request('POST', '/booking/v1/bookings/bulk', {
      body: { ...bookingBody('zone-b', `${date}T15:00:00Z`, `${date}T15:30:00Z`), recurrenceRule: 'FREQ=DAILY;COUNT=3', timeZone: 'UTC' },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const records: string[] = [created.body.parent.id, ...created.body.occurrences.map((o: { id: string }) => o.id)];
    expect(records).to.have.length(4);
    const cancelled = await server.request('PATCH', `/booking/v1/bookings/series/${created.body.parent.id}/cancel`, { body: { reason: 'series dropped' } });
    expect(cancelled.status).to.equal(200);
    await waitFor(() => records.every((id) => namesFor(id).includes('booking.cancel')), { what: 'a booking.cancel per record' });
    for (const id of records) {
      expect(namesFor(id), id).to.deep.equal(['booking.create', 'booking.cancel']);
      expect(eventsFor(id)[1]!.data).to.include({ reason: 'series dropped', status: 'cancelled' });
    }
  });

  it('retries after a 500 until the receiver answers 2xx', async () => {
    receiver.answer = (envelope, attempt) => (envelope.event === 'booking.create' && attempt <= 2 ? 500 : 200);
    await run();
    const id = await book('zone-a');
    await waitFor(() => eventsFor(id).length === 1, { what: 'the delivery after two 500s' });
    expect(receiver.attempts.filter((a) => a.envelope.data.id === id).map((a) => a.status)).to.deep.equal([500, 500, 200]);
  });

  it('delivers what was queued while the receiver was down', async () => {
    await receiver.close();
    await run();
    const id = await book('zone-a');
    await waitFor(
      async () => {
        const failed = await server.services.db.selectFrom('webhook_deliveries').select('last_error').where('attempts', '>', 0).execute();
        return failed.length > 0;
      },
      { what: 'a failed attempt' },
    );
    await sleep(100);
    await receiver.reopen();
    await waitFor(() => eventsFor(id).length === 1, { what: 'the delivery after the receiver came back' });
  });

  it('keeps the order of a resource while its head is retried, and lets other resources flow', async () => {
    let first: string | undefined;
    receiver.answer = (envelope, attempt) => (envelope.data.id === first && attempt <= 3 ? 503 : 204);
    await workers?.stop();
    first = await book('zone-a', '09:00', '09:30');
    const second = await book('zone-a', '09:30', '10:00');
    const other = await book('zone-b');
    await run();
    await waitFor(() => eventsFor(second).length === 1, { what: 'the second delivery of zone-a' });
    const order = receiver.received.map((e) => e.data.id);
    expect(order.indexOf(other)).to.be.lessThan(order.indexOf(first));
    expect(order.indexOf(first)).to.be.lessThan(order.indexOf(second));
  });

  it('gives a delivery cut short by a stop back to the queue, and sends it again after the restart', async () => {
    let id: string | undefined;
    let seen!: () => void;
    const inFlight = new Promise<void>((resolve) => (seen = resolve));
    receiver.answer = async (envelope, attempt) => {
      if (envelope.data.id !== id || attempt > 1) return 204;
      seen();
      await sleep(1_000);
      return 204;
    };
    await run();
    id = await book('zone-a');
    await inFlight;
    await workers!.stop();
    const row = await server.services.db
      .selectFrom('webhook_deliveries')
      .select(['attempts', 'claimed_until'])
      .where(sql<boolean>`payload->'data'->>'id' = ${id}`)
      .executeTakeFirstOrThrow();
    expect(row).to.deep.equal({ attempts: 0, claimed_until: null });
    await run();
    await waitFor(() => eventsFor(id!).length === 1, { what: 'the delivery after the restart' });
  });

  it('does not follow a redirect: it is a failed attempt', async () => {
    let id: string | undefined;
    receiver.answer = (envelope, attempt) => (envelope.data.id === id && attempt === 1 ? 307 : 204);
    await run();
    id = await book('zone-a');
    await waitFor(() => eventsFor(id!).length === 1, { what: 'the delivery after the redirect' });
    expect(receiver.attempts.filter((a) => a.envelope.data.id === id).map((a) => a.status)).to.deep.equal([307, 204]);
  });

  describe('dead letters', () => {
    let deadId: string;
    let bookingId: string;

    it('dead-letters a delivery after the last retry; LV1 and LV2 list it, LV3–LV5 may not', async () => {
      receiver.answer = (envelope) => (envelope.workspace === server.workspace && envelope.data.resourceId === 'zone-b' ? 500 : 204);
      await run({ webhookRetryDelaysMs: [20, 20] });
      bookingId = await book('zone-b');
      const list = await waitFor(
        async () => {
          const res = await server.request('GET', '/booking/v1/webhooks/dead-letters');
          return res.body.count > 0 ? res : undefined;
        },
        { what: 'the dead letter' },
      );
      expect(list.status).to.equal(200);
      expect(list.body).to.include({ count: 1, total: 1, page: 1, pageCount: 1 });
      const [dead] = list.body.data;
      expect(dead).to.include({ event: 'booking.create', workspace: server.workspace, resourceId: 'zone-b', attempts: 3, lastStatusCode: 500 });
      expect(dead.lastError).to.be.a('string');
      expect(dead.payload).to.include({ event: 'booking.create', id: dead.eventId });
      expect(dead.payload.data.id).to.equal(bookingId);
      expect(dead.deadLetteredAt).to.match(/Z$/);
      deadId = dead.id;

      const admin = await server.request('GET', '/booking/v1/webhooks/dead-letters', { token: server.token({ level: 'LV1', workspace: null }) });
      expect(admin.body.data.map((d: { id: string }) => d.id)).to.include(deadId);
      const stranger = await server.request('GET', '/booking/v1/webhooks/dead-letters', { token: server.token({ workspace: randomUUID() }) });
      expect(stranger.body.total).to.equal(0);
      for (const level of ['LV3', 'LV4', 'LV5'] as const) {
        expect((await server.request('GET', '/booking/v1/webhooks/dead-letters', { token: server.token({ level }) })).status, level).to.equal(403);
        expect((await server.request('POST', `/booking/v1/webhooks/dead-letters/${deadId}/redeliver`, { token: server.token({ level }) })).status, level).to.equal(403);
      }
    });

    it('redelivers a dead letter with the same event id (LV2 of its workspace)', async function () {
      if (!deadId) this.skip();
      await run({ webhookRetryDelaysMs: [20, 20] });
      const stranger = await server.request('POST', `/booking/v1/webhooks/dead-letters/${deadId}/redeliver`, { token: server.token({ workspace: randomUUID() }) });
      expect(stranger.status).to.equal(404);
      const res = await server.request('POST', `/booking/v1/webhooks/dead-letters/${deadId}/redeliver`);
      expect(res.status).to.equal(202);
      expect(res.body).to.include({ id: deadId, event: 'booking.create' });
      const redelivered = await waitFor(() => receiver.received.find((e) => e.id === res.body.eventId), { what: 'the redelivery' });
      expect(redelivered).to.include({ event: 'booking.create' });
      expect(redelivered.data.id).to.equal(bookingId);
      const after = await server.request('GET', '/booking/v1/webhooks/dead-letters');
      expect(after.body.total).to.equal(0);
      expect((await server.request('POST', `/booking/v1/webhooks/dead-letters/${deadId}/redeliver`)).status).to.equal(404);
    });
  });
});
