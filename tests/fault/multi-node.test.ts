import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { sql } from 'kysely';
import { eventPath, eventText, inboxReplies, putEvent, roomAddress, storedEvent } from '../api/dav/invitation-requests.js';
import { haproxyAvailable, startHaproxy, type Haproxy } from '../../scripts/haproxy.js';
import { callService } from '../support/call-service.js';
import { seedZone } from '../support/device-records.js';
import { freePort } from '../support/free-port.js';
import { kafkaAvailability, startKafkaBroker, type KafkaBroker } from '../support/kafka-broker.js';
import { createTopic } from '../support/kafka-topic.js';
import { createTestHost, namespacesAvailable, type TestHost } from '../support/network-namespaces.js';
import { postgresRestart } from '../support/postgres-restart.js';
import { startTcpRelay, type TcpRelay } from '../support/tcp-relay.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { mintToken, platformKey } from '../support/test-keys.js';
import { startWebhookReceiver, type WebhookReceiver } from '../infra/webhook/webhook-receiver.js';
import { waitFor } from '../workers/worker-test-kit.js';

/**
 * Contract §19 as an operator runs it: three nodes (all-in-one, one process each), each on a test
 * host of its own (a network namespace with its own address), reaching PostgreSQL through a relay
 * the test can cut, behind HAProxy with health checks (scripts/haproxy.ts, the settings of
 * docker-compose's `scale` profile). First 256 concurrent creates of distinct slots on one
 * resource, spread over the nodes: every one 201. Then, under 32 clients creating through HAProxy:
 * a rolling restart (SIGTERM to each node in turn); the clients paced to `pacedRate` until every
 * delivery has caught up, then kill -9 of the node running the webhook relay; one node cut from
 * PostgreSQL, and PostgreSQL restarted (in CI or with FAULT_RESTART_POSTGRES=1:
 * tests/support/postgres-restart.ts). Checked: no overlap, no lost acknowledged write, the timer
 * fired once, every webhook (and Kafka message, with a broker) delivered, processors resumed
 * within 10 s, and no answer beyond 201/409/422 nor reset during the rolling restart. Printed:
 * each phase's answers, the hot resource's latencies, and how soon after the kill the webhook
 * (and Kafka) delivery's p99 was back under 1 s.
 */

const workspace = randomUUID();
const secret = `whsec_${randomBytes(24).toString('base64')}`;
/** zones[0] holds the timer's booking; the load spreads over the others (each resource's webhooks leave in order, one at a time). */
const zones = Array.from({ length: 33 }, (_, i) => `node-room-${i}`);
const hotZone = 'node-hot-room';
/** A room twenty organizers invite for the same hour while REST creates race them (contract §26), and one that warms each node's invitation path first. */
const invitedZone = 'node-invited-room';
const warmUpZone = 'node-warm-up-room';
/** A desk area of 50 (contract §21): a thousand people want one of them for the same hour. */
const poolZone = 'node-desk-area';
const hour = 3_600_000;
const dayStart = Math.ceil((Date.now() + 2 * 24 * hour) / (24 * hour)) * 24 * hour;
const nodePort = 3000;
const clients = 32;
/**
 * Creates per second of the load around the kill (its 32 clients paced): one the delivery keeps up
 * with before the kill, so that its figures tell what the kill did. The other phases run flat out.
 */
const pacedRate = 20;
/** After the kill, the load runs this long before the killed node comes back: the window of the delivery figures. */
const killWindowMs = 20_000;
/** The delivery figures start this long before the kill: the delivery's pace before it. */
const beforeKillMs = 5_000;

type Node = { name: string; host: TestHost; relay: TcpRelay; child?: ChildProcess; output: string; exited?: Promise<number | null> };

/** Slot `k` of a grid of 15-minute slots over 200 days: the load's creates rarely collide. */
const slot = (k: number) => {
  const start = dayStart + (k % 19_200) * 15 * 60_000;
  return { startTime: new Date(start).toISOString(), endTime: new Date(start + 15 * 60_000).toISOString() };
};

/** Nearest-rank percentile of ascending `sorted`. */
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/**
 * Delivery around the kill: the creates acknowledged in each second from `beforeKillMs` before the
 * kill to `killWindowMs` after it, and the p99 of their time from the 201 to their first arrival
 * (webhook or Kafka; one that never arrived counts as lost). `backUnder1sAfterMs`: from the kill
 * to the end of the last second after it whose p99 was 1 s or more (0: none was), i.e. every
 * create acknowledged from then on was delivered with a p99 under 1 s.
 */
function deliveryAroundKill(acknowledgedAt: Map<string, number>, arrivedAt: Map<string, number>, killedAt: number) {
  const seconds: number[][] = Array.from({ length: (beforeKillMs + killWindowMs) / 1000 }, () => []);
  for (const [id, ackAt] of acknowledgedAt) {
    const second = Math.floor((ackAt - killedAt + beforeKillMs) / 1000);
    if (second >= 0 && second < seconds.length) seconds[second]!.push((arrivedAt.get(id) ?? Infinity) - ackAt);
  }
  const p99s = seconds.map((latencies) => (latencies.length ? percentile(latencies.sort((a, b) => a - b), 99) : null));
  const afterKill = p99s.slice(beforeKillMs / 1000);
  const lastSlow = afterKill.reduce<number>((last, p99, second) => (p99 !== null && p99 >= 1000 ? second : last), -1);
  return {
    p99BeforeKillMs: p99s.slice(0, beforeKillMs / 1000).map((p) => (p === null ? null : Number.isFinite(p) ? Math.round(p) : 'lost')),
    p99PerSecondAfterKillMs: afterKill.map((p) => (p === null ? null : Number.isFinite(p) ? Math.round(p) : 'lost')),
    backUnder1sAfterMs: (lastSlow + 1) * 1000,
  };
}

(process.env.DB_HOST ? describe : describe.skip)('several nodes behind HAProxy (contract §19; needs root, iproute2 and haproxy)', function () {
  this.timeout(300_000);
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let haproxy: Haproxy;
  let broker: KafkaBroker | undefined;
  let consumer: Consumer | undefined;
  /** Booking id → when its first Kafka message arrived here. */
  const kafkaArrivals = new Map<string, number>();
  const nodes: Node[] = [];
  let env: Record<string, string>;
  const token = mintToken({ workspace, level: 'LV2' });
  const call = (method: string, path: string, body?: unknown) => callService(haproxy.url, token, method, path, body);

  const startNode = async (node: Node) => {
    node.output = '';
    const child = node.host.spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      ...env,
      DB_HOST: node.host.gateway,
      DB_PORT: String(node.relay.port),
      WEBHOOK_ENDPOINT: `http://${node.host.gateway}:${new URL(receiver.url).port}/hooks`,
      DATA_DIR: `/tmp/booking-nodes-${process.pid}-${node.name}`,
    });
    const keep = (chunk: Buffer) => (node.output = (node.output + chunk.toString()).slice(-32_000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    node.child = child;
    node.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    await waitFor(() => health(node).then((h) => h.status === 200), { timeoutMs: 90_000, what: `${node.name} to answer its health check` }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${node.output}`);
    });
  };
  const health = (node: Node) =>
    fetch(`http://${node.host.address}:${nodePort}/booking/v1/health`, { signal: AbortSignal.timeout(2_000) }).then(
      async (r) => ({ status: r.status, body: (await r.json().catch(() => ({}))) as { info?: { workers?: { processors?: Record<string, { active: boolean }> } } } }),
      () => ({ status: 0, body: {} as { info?: { workers?: { processors?: Record<string, { active: boolean }> } } } }),
    );
  /** The processors each node runs actively now. */
  const activeOn = async (node: Node) => Object.entries((await health(node)).body.info?.workers?.processors ?? {}).filter(([, p]) => p.active).map(([name]) => name);

  before(async function () {
    if (!(await namespacesAvailable()) || !haproxyAvailable()) {
      if (process.env.CI) throw new Error('CI needs root, iproute2 and haproxy for the multi-node run');
      this.skip();
    }
    this.timeout(240_000);
    database = await createTestDatabase();
    for (const zone of [...zones, hotZone, poolZone, invitedZone, warmUpZone]) await seedZone(database.db, workspace, zone);
    receiver = await startWebhookReceiver(secret, { host: '0.0.0.0' });
    env = {
      PATH: process.env.PATH ?? '',
      ...database.env,
      PORT: String(nodePort),
      APP_ENV: 'production',
      PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
      WEBHOOK_SECRET: secret,
      WEB_CONCURRENCY: '1',
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_SECONDS: '10',
      // Thirty-two clients on one token send far more than a minute's default allowance; limits are not what this run is about.
      RATE_LIMIT_PER_MINUTE: '0',
    };
    for (const index of [1, 2, 3]) {
      const host = await createTestHost(index);
      const relay = await startTcpRelay({ host: database.config!.host, port: database.config!.port }, 0, host.gateway);
      nodes.push({ name: `node${index}`, host, relay, output: '' });
    }
    if (kafkaAvailability() === 'local') {
      // One broker on the first test host's gateway, which every test host reaches (network-namespaces.ts).
      broker = await startKafkaBroker({ host: nodes[0]!.host.gateway });
      const kafka = new Kafka({ clientId: 'multi-node-test', brokers: broker.brokers, logLevel: logLevel.NOTHING });
      const topic = await createTopic(kafka, 'multi-node');
      Object.assign(env, { KAFKA_BROKERS: broker.brokers.join(','), KAFKA_TOPIC: topic });
      consumer = kafka.consumer({ groupId: `multi-node-${randomUUID()}` });
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          const id = (JSON.parse(String(message.value)) as { data: { id?: string } }).data.id;
          if (id && !kafkaArrivals.has(id)) kafkaArrivals.set(id, Date.now());
        },
      });
    }
    await Promise.all(nodes.map(startNode));
    haproxy = await startHaproxy(
      nodes.map((n) => ({ name: n.name, address: n.host.address, port: nodePort })),
      await freePort(),
    );
    for (const zone of zones) {
      const policy = zone === zones[0] ? { autoConfirm: false } : { maxAdvanceDays: 3650 };
      const res = await call('POST', '/booking/v1/resources', { resourceType: 'zone', resourceId: zone, bookingPolicy: policy });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
  });

  after(async function () {
    this.timeout(60_000);
    /** One cleanup step, named on the output while it takes longer than 10 s. */
    const step = async (what: string, work: () => Promise<unknown> | undefined) => {
      const slow = setTimeout(() => console.log(`cleanup: still ${what} after 10 s`), 10_000);
      await work();
      clearTimeout(slow);
    };
    // First: the broker listens on the first test host's gateway, which goes with that host.
    await step('disconnecting the Kafka consumer', () => consumer?.disconnect());
    await step('stopping the Kafka broker', () => broker?.stop());
    for (const node of nodes) {
      await step(`stopping ${node.name}`, async () => {
        if (node.child && node.child.exitCode === null) {
          node.child.kill('SIGKILL');
          await node.exited;
        }
      });
      await step(`closing ${node.name}'s relay`, () => node.relay.close());
      await step(`removing ${node.name}'s namespace`, () => node.host.remove());
    }
    await step('stopping HAProxy', () => haproxy?.stop());
    await step('closing the webhook receiver', () => receiver?.close());
    await step('dropping the database', () => database?.destroy());
  });

  it('answers 201 to each of 256 concurrent creates of distinct slots on one resource spread over the three nodes', async () => {
    const created = await call('POST', '/booking/v1/resources', { resourceType: 'zone', resourceId: hotZone, bookingPolicy: { maxAdvanceDays: 3650 } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 256 }, async (_, i) => {
        const sent = Date.now();
        // What counts is the answer: on a busy machine the last of 256 turns may come after more than 30 s.
        const res = await callService(haproxy.url, token, 'POST', '/booking/v1/bookings', { resourceType: 'zone', resourceId: hotZone, title: 'Hot', ...slot(i) }, { timeoutMs: 120_000 });
        return { ...res, ms: Date.now() - sent };
      }),
    );
    const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
    const statuses = Object.fromEntries([...new Set(answers.map((a) => a.status))].map((s) => [s, answers.filter((a) => a.status === s).length]));
    console.log(JSON.stringify({ hotResource: { creates: 256, statuses, wallMs: Date.now() - started, p50Ms: percentile(ms, 50), p99Ms: percentile(ms, 99), maxMs: ms.at(-1) } }));
    expect(answers.filter((a) => a.status !== 201).slice(0, 3), 'every create answered 201 (no 503)').to.deep.equal([]);
    const rows = await database.db.selectFrom('bookings').select('id').where('bookable_resource_id', '=', created.body.id as string).execute();
    expect(rows).to.have.length(256);
  });

  it('answers 1,000 simultaneous one-unit creates for one hour on a pool of 50 over the three nodes: exactly 50 × 201, the rest refused', async () => {
    const created = await call('POST', '/booking/v1/resources', { resourceType: 'zone', resourceId: poolZone, units: 50, bookingPolicy: { maxAdvanceDays: 3650 } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    // Signed before the burst, a few at a time: a thousand RS256 signatures in one go hold this
    // process over a second, and the nodes reach PostgreSQL through the relays it runs. Their health
    // checks' reads then wait past the checks' 2 s bound, and HAProxy takes every node out at once.
    const bookers: string[] = [];
    for (let i = 0; i < 1000; i++) {
      bookers.push(mintToken({ workspace, level: 'LV4', sub: `desk-${i}` }));
      if (i % 20 === 19) await sleep(0);
    }
    const started = Date.now();
    const hour = slot(0);
    const answers = await Promise.all(
      bookers.map(async (booker) => {
        const sent = Date.now();
        const create = () => callService(haproxy.url, booker, 'POST', '/booking/v1/bookings', { resourceType: 'zone', resourceId: poolZone, title: 'Desk', ...hour }, { timeoutMs: 120_000 });
        const first = await create();
        // A 503 stores nothing and says "try again" (contract §12): a client does, as long as it takes.
        let res = first;
        for (let retry = 0; res.status === 503 && retry < 100; retry++) {
          await sleep(250);
          res = await create();
        }
        return { ...res, first, ms: Date.now() - sent };
      }),
    );
    const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
    const tally = (statusOf: (a: (typeof answers)[number]) => number) =>
      Object.fromEntries([...new Set(answers.map(statusOf))].map((s) => [s, answers.filter((a) => statusOf(a) === s).length]));
    const [firstStatuses, statuses] = [tally((a) => a.first.status), tally((a) => a.status)];
    // The figure for docs/benchmarks.md (issue #29's target: no 5xx and all answered within 5 s, on a
    // quiet machine; the first answers tell). What must hold on any machine, once every 503 "try
    // again" was tried again: all 50 units taken, never more; the rest refused with 409.
    const unavailable = [...new Set(answers.filter((a) => a.first.status >= 500).map((a) => JSON.stringify(a.first.body).slice(0, 200)))];
    console.log(JSON.stringify({ pool: { creates: 1000, units: 50, firstStatuses, statuses, unavailable, wallMs: Date.now() - started, p50Ms: percentile(ms, 50), p99Ms: percentile(ms, 99), maxMs: ms.at(-1) } }));
    expect(statuses).to.deep.equal({ 201: 50, 409: 950 });
    const refused = answers.find((a) => a.status === 409)!;
    expect((refused.body as { availableUnits?: number }).availableUnits).to.equal(0);
    const rows = await database.db.selectFrom('bookings').select('units').where('bookable_resource_id', '=', created.body.id as string).where('status', 'in', ['pending', 'confirmed']).execute();
    expect(rows.reduce((sum, r) => sum + r.units, 0)).to.equal(50);
  });

  it('lets exactly one of 20 organizers inviting one room for one hour and 10 REST creates of it, over the three nodes, hold it: the others declined with 4.0, and the records agree', async () => {
    const [roomId, warmUpRoomId] = await Promise.all(
      [invitedZone, warmUpZone].map(async (zone) => {
        const created = await call('POST', '/booking/v1/resources', { resourceType: 'zone', resourceId: zone, bookingPolicy: { maxAdvanceDays: 3650 } });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        return created.body.id as string;
      }),
    ) as [string, string];
    // Through HAProxy and straight to each node, in turn.
    const targets = [haproxy.url, ...nodes.map((n) => `http://${n.host.address}:${nodePort}`)];
    const target = (i: number, bearer: string) => ({ url: targets[i % targets.length]!, token: () => bearer });
    const organizer = (sub: string) => ({ sub, token: mintToken({ workspace, level: 'LV4', sub, email: `${sub}@example.com` }), path: eventPath(sub, `${randomUUID()}.ics`), uid: randomUUID() });
    const invite = (o: ReturnType<typeof organizer>, i: number, room: string, from: number) =>
      putEvent(target(i, o.token), o.token, o.path, eventText({ uid: o.uid, organizer: `mailto:${o.sub}@example.com`, start: new Date(from).toISOString(), end: new Date(from + hour).toISOString(), summary: 'Invited', attendees: [roomAddress(room)] }));
    // Each node has answered an invitation before (a node's first is slower than a REST create).
    for (const i of [1, 2, 3]) {
      const warmed = await invite(organizer(`warm-up-${i}`), i, warmUpRoomId, dayStart + (20 + i) * hour);
      expect(warmed.status, warmed.text).to.equal(201);
    }

    /** One race for the hour at `from`: the REST creates sent `restDelayMs` after the invitations. */
    const race = async (round: number, from: number, restDelayMs: number) => {
      const [start, end] = [new Date(from).toISOString(), new Date(from + hour).toISOString()];
      const organizers = Array.from({ length: 20 }, (_, i) => organizer(`inviter-${round}-${i}`));
      const restBookers = Array.from({ length: 10 }, (_, i) => mintToken({ workspace, level: 'LV4', sub: `rest-booker-${round}-${i}` }));
      const puts = organizers.map((o, i) => invite(o, i, roomId, from));
      const rests = restBookers.map(async (bearer, i) => {
        await sleep(restDelayMs);
        return callService(targets[(i + 1) % targets.length]!, bearer, 'POST', '/booking/v1/bookings', { resourceType: 'zone', resourceId: invitedZone, title: 'REST', startTime: start, endTime: end });
      });
      const [putAnswers, restAnswers] = await Promise.all([Promise.all(puts), Promise.all(rests)]);
      expect(putAnswers.map((a) => a.status), putAnswers.map((a) => a.text).join('\n').slice(0, 2000)).to.deep.equal(organizers.map(() => 201));
      expect(restAnswers.filter((a) => a.status !== 201 && a.status !== 409), 'REST answers other than 201 or 409').to.deep.equal([]);
      for (const refused of restAnswers.filter((a) => a.status === 409)) expect(refused.body.conflicts, JSON.stringify(refused.body)).to.have.length.greaterThan(0);

      // The stored objects, each read through another node than the one written to.
      const stored = await Promise.all(organizers.map((o, i) => storedEvent(target(i + 1, o.token), o.token, o.path)));
      expect(stored.map((s) => s.status)).to.deep.equal(organizers.map(() => 200));
      for (const [i, s] of stored.entries()) {
        expect(s.text, organizers[i]!.sub).to.include(`UID:${organizers[i]!.uid}`);
        expect(s.attendees.map((a) => a.address)).to.deep.equal([roomAddress(roomId)]);
      }
      const rooms = stored.map((s) => s.attendees[0]!);
      const accepted = rooms.flatMap((room, i) => (room.partstat === 'ACCEPTED' ? [{ room, organizer: organizers[i]! }] : []));
      const restWinners = restAnswers.filter((a) => a.status === 201);
      expect(accepted.length + restWinners.length, 'one holds the room').to.equal(1);
      expect(rooms.filter((r) => r.partstat !== 'ACCEPTED').map((r) => ({ partstat: r.partstat, bookingId: r.bookingId }))).to.deep.equal(
        organizers.slice(accepted.length).map(() => ({ partstat: 'DECLINED', bookingId: null })),
      );

      // Bookings through REST: the one winner, and no other.
      const listed = await call('GET', `/booking/v1/bookings?resourceId=${invitedZone}&from=${start}&to=${end}&limit=100`);
      expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
      const held = listed.body.data as { id: string; status: string; calendarUid: string | null; bookerProfileId: string; startTime: string; endTime: string }[];
      expect(held.map((b) => [b.status, b.startTime, b.endTime]), 'no booking of the declined').to.deep.equal([['confirmed', start.replace('.000Z', 'Z'), end.replace('.000Z', 'Z')]]);
      const winner = accepted[0];
      if (winner) expect(held[0]).to.include({ id: winner.room.bookingId, calendarUid: winner.organizer.uid, bookerProfileId: winner.organizer.sub });
      else expect(held[0]).to.include({ id: restWinners[0]!.body.id, calendarUid: null });

      // Each organizer's inbox: one REPLY, matching its stored event; every decline 4.0 with its reason.
      for (const [i, o] of organizers.entries()) {
        const replies = (await inboxReplies(target(i + 2, o.token), o.token, o.sub)).filter((r) => r.uid === o.uid);
        expect(replies, o.sub).to.have.length(1);
        expect(replies[0]).to.include({ attendee: roomAddress(roomId), partstat: rooms[i]!.partstat });
        expect(replies[0]!.requestStatus).to.match(rooms[i]!.partstat === 'ACCEPTED' ? /^2\.0/ : /^4\.0;Event conflict\. Date-time is busy\.;conflict$/);
      }

      // The log: one BookingCreated of that room for that hour, the winner's.
      const { rows: logged } = await sql<{ id: string }>`
        select data->'booking'->>'id' as id from events
         where event_type = 'BookingCreated' and data->'booking'->>'bookableResourceId' = ${roomId} and (data->'booking'->>'startTime')::timestamptz = ${start}::timestamptz`.execute(database.db);
      expect(logged.map((e) => e.id)).to.deep.equal([held[0]!.id]);
      return winner ? 'invitation' : 'REST';
    };
    // At the same moment; then with the REST creates a little later, so that an invitation may win too.
    const winners = [await race(0, dayStart + 10 * hour, 0), await race(1, dayStart + 12 * hour, 150)];
    console.log(JSON.stringify({ invitationRaces: { winners } }));
  });

  it('serves through rolling restarts, a killed processor node, a node cut from PostgreSQL and a PostgreSQL restart, losing nothing', async () => {
    const timerZone = zones[0]!;
    /** Booking id → when its 201 came. */
    const acknowledged = new Map<string, number>();
    let phase = 'warm-up';
    const outcomes = new Map<string, number>();
    const count = (what: string) => outcomes.set(`${phase}: ${what}`, (outcomes.get(`${phase}: ${what}`) ?? 0) + 1);
    let k = 0;
    let loadRunning = true;
    let pauseMs = 0;
    const client = async () => {
      while (loadRunning) {
        await sleep(pauseMs);
        const res = await call('POST', '/booking/v1/bookings', { resourceType: 'zone', resourceId: zones[1 + (k % (zones.length - 1))], title: 'Nodes', ...slot(k++) });
        count(res.status === 0 ? `reset (${res.body})` : typeof res.body === 'string' ? `${res.status} from HAProxy` : String(res.status));
        if (res.status === 201) acknowledged.set(res.body.id, Date.now());
        if (res.status === 503 || res.status === 0) await sleep(100);
      }
    };
    const load = Promise.all(Array.from({ length: clients }, client));
    await sleep(3_000);

    // Rolling restart: each node drained by SIGTERM, restarted, healthy again before the next.
    phase = 'rolling restart';
    const exitCodes: (number | null)[] = [];
    for (const node of nodes) {
      node.child!.kill('SIGTERM');
      exitCodes.push(await node.exited!);
      await startNode(node);
      await sleep(1_500);
    }

    // Paced, until the webhooks (and Kafka messages) of every acknowledged create have arrived.
    phase = 'paced';
    pauseMs = (clients * 1000) / pacedRate;
    /** Booking id → when its first webhook arrived (read from the receiver's attempts so far). */
    const webhookArrivals = new Map<string, number>();
    let countedAttempts = 0;
    const collectWebhookArrivals = () => {
      for (const attempt of receiver.attempts.slice(countedAttempts)) {
        const id = attempt.envelope.data.id as string;
        if (attempt.status < 300 && !webhookArrivals.has(id)) webhookArrivals.set(id, attempt.at);
      }
      countedAttempts = receiver.attempts.length;
    };
    const caughtUp = () => {
      collectWebhookArrivals();
      return [...acknowledged.keys()].every((id) => webhookArrivals.has(id) && (!consumer || kafkaArrivals.has(id)));
    };
    const backlogStarted = Date.now();
    await waitFor(caughtUp, { timeoutMs: 180_000, what: 'the deliveries to catch up with the paced load' });
    const backlogDrainedMs = Date.now() - backlogStarted;
    await sleep(beforeKillMs);

    // A pending booking whose expiry timer falls due while the processor node is dead.
    phase = 'kill -9';
    const timerStart = new Date(Date.now() + 4_000);
    const pending = await call('POST', '/booking/v1/bookings', { resourceType: 'zone', resourceId: timerZone, title: 'Expires', startTime: timerStart.toISOString(), endTime: new Date(timerStart.getTime() + hour).toISOString() });
    expect(pending.status, JSON.stringify(pending.body)).to.equal(201);
    // The node running the webhook relay, whose move the delivery figures show (the Kafka relay's
    // only when it ran there too: the report says so).
    const holder = await waitFor(
      async () => {
        const active = await Promise.all(nodes.map(async (n) => ({ n, active: await activeOn(n) })));
        return active.find(({ active }) => active.includes('webhook-relay'));
      },
      { timeoutMs: 10_000, what: 'a node to run the webhook relay' },
    );
    const killedAt = Date.now();
    holder.n.child!.kill('SIGKILL');
    await holder.n.exited;
    const others = nodes.filter((n) => n !== holder.n);
    await waitFor(
      async () => {
        const activeElsewhere = new Set((await Promise.all(others.map(activeOn))).flat());
        return holder.active.every((name) => activeElsewhere.has(name));
      },
      { timeoutMs: 30_000, what: `the processors of ${holder.n.name} (${holder.active.join(', ')}) to move` },
    );
    const takeoverMs = Date.now() - killedAt;
    await sleep(killedAt + killWindowMs - Date.now());
    pauseMs = 0;
    await startNode(holder.n);

    // One node cut from PostgreSQL while the others go on.
    phase = 'one node cut from PostgreSQL';
    await nodes[1]!.relay.cutAndRefuse();
    await sleep(4_000);
    await nodes[1]!.relay.accept();
    const reconnected = Date.now();
    await waitFor(() => health(nodes[1]!).then((h) => h.status === 200), { timeoutMs: 30_000, what: 'the cut node to recover' });
    const cutNodeHealthyAfterMs = Date.now() - reconnected;

    const server = await postgresRestart();
    let postgresRestartRecoveryMs: number | null = null;
    if (server) {
      phase = 'PostgreSQL restarted';
      const restarted = Date.now();
      await server.restart();
      await Promise.all(nodes.map((n) => waitFor(() => health(n).then((h) => h.status === 200), { timeoutMs: 60_000, what: `${n.name} after the restart` })));
      postgresRestartRecoveryMs = Date.now() - restarted;
    }
    phase = 'cool-down';
    await sleep(2_000);
    loadRunning = false;
    await load;

    // The check, on the rooms (one unit each): the desk area's bookings share their hour by design (its count is checked above).
    const { rows: overlaps } = await sql<{ a: string }>`
      select a.id as a from bookings a join bookings b
        on a.bookable_resource_id = b.bookable_resource_id and a.id < b.id
       and booking_occupied_range(a.start_time, a.end_time, a.buffer_before_minutes, a.buffer_after_minutes)
        && booking_occupied_range(b.start_time, b.end_time, b.buffer_before_minutes, b.buffer_after_minutes)
      where a.status in ('pending', 'confirmed') and b.status in ('pending', 'confirmed') and not a.is_series_parent and not b.is_series_parent
        and not a.pooled and not b.pooled`.execute(database.db);
    const stored = new Set((await database.db.selectFrom('bookings').select('id').execute()).map((r) => r.id));
    const lost = [...acknowledged.keys()].filter((id) => !stored.has(id));
    const expiry = await waitFor(
      async () => {
        const { rows } = await sql<{ n: string }>`
          select count(*) as n from events where event_type = 'BookingCancelled' and data->'booking'->>'id' = ${pending.body.id as string}`.execute(database.db);
        return Number(rows[0]!.n) > 0 ? Number(rows[0]!.n) : undefined;
      },
      { timeoutMs: 30_000, what: 'the pending booking to expire' },
    );
    const { rows: created } = await sql<{ id: string; booking: string }>`
      select event_id as id, data->'booking'->>'id' as booking from events where event_type = 'BookingCreated'`.execute(database.db);
    await waitFor(() => created.every((e) => receiver.received.some((r) => r.id === e.id)), { timeoutMs: 60_000, what: `webhooks of ${created.length} creates` });
    if (consumer) await waitFor(() => created.every((e) => kafkaArrivals.has(e.booking)), { timeoutMs: 60_000, what: `Kafka messages of ${created.length} creates` });
    collectWebhookArrivals();

    const report = {
      clients,
      outcomes: Object.fromEntries([...outcomes].sort()),
      acknowledged: acknowledged.size,
      exitCodes,
      killedNodeProcessors: holder.active,
      takeoverMs,
      backlogDrainedMs,
      pacedRate,
      cutNodeHealthyAfterMs,
      webhooksAroundKill: deliveryAroundKill(acknowledged, webhookArrivals, killedAt),
      kafkaAroundKill: consumer ? deliveryAroundKill(acknowledged, kafkaArrivals, killedAt) : 'no broker (KAFKA_LIBS unset)',
      postgresRestart: server ? { cluster: server.cluster, nodesHealthyAfterMs: postgresRestartRecoveryMs } : 'not run (CI or FAULT_RESTART_POSTGRES=1)',
      overlaps: overlaps.length,
      lost: lost.length,
      expiries: expiry,
    };
    console.log(JSON.stringify(report, null, 2));
    // When and why HAProxy took nodes out and back in (it tells on stderr in the foreground).
    console.log(haproxy.output().split('\n').filter((line) => /Server nodes\/|no server available/.test(line)).join('\n'));
    expect(overlaps).to.deep.equal([]);
    expect(lost).to.deep.equal([]);
    expect(expiry, 'the timer fires once').to.equal(1);
    expect(exitCodes, 'a drained node exits 0').to.deep.equal([0, 0, 0]);
    expect(takeoverMs, 'processors resumed on another node').to.be.at.most(10_000);
    const rolling = [...outcomes.keys()].filter((key) => key.startsWith('rolling restart:') && !/: (201|409|422)$/.test(key));
    expect(rolling, 'no 5xx and no reset during the rolling restart').to.deep.equal([]);
    expect([...outcomes.keys()].filter((key) => /: 500$/.test(key))).to.deep.equal([]);
    expect(acknowledged.size).to.be.greaterThan(100);
  });
});
