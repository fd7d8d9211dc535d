import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { callService } from '../support/call-service.js';
import { seedZone } from '../support/device-records.js';
import type { ServiceProcess } from '../support/service-process.js';
import type { TcpRelay } from '../support/tcp-relay.js';
import { startRelayedProcesses, type RelayedProcesses } from '../support/relayed-processes.js';
import type { TestDatabase } from '../support/test-database.js';
import { mintToken } from '../support/test-keys.js';

/**
 * Contract §24 under faults: two service processes (API and workers each) reach PostgreSQL through a
 * relay; pending bookings fall due for their approval deadline and their reminder while the
 * relay is cut and one process is killed (SIGKILL, its claimed timers held by their lease). The
 * checker: every deadline and every reminder fired exactly once, none more than 20 s after its time.
 */

const workspace = randomUUID();
const rooms = 12;
const lateLimitMs = 20_000;

describe('approval deadlines and reminders under a database cut and a killed node (PostgreSQL only)', () => {
  let rig: RelayedProcesses;
  let database: TestDatabase;
  let relay: TcpRelay;
  let nodes: ServiceProcess[] = [];

  before(async function () {
    if (!process.env.DB_HOST) this.skip();
    this.timeout(60_000);
    rig = await startRelayedProcesses('approval-fault', { env: { DB_POOL_SIZE: '5' } });
    ({ database, relay, processes: nodes } = rig);
  });

  after(async function () {
    this.timeout(30_000);
    await rig?.stop();
  });

  it('fires every deadline and reminder once, within 20 s of its time', async function () {
    this.timeout(85_000);
    const admin = mintToken({ workspace, level: 'LV2', sub: 'approval-admin' });
    const booker = mintToken({ workspace, level: 'LV4', sub: 'approval-booker' });
    const started = Date.now();
    // One booking a room, starting 70–81 s from now: a deadline one minute ahead of the start
    // falls due 10–21 s from now, inside the faults; the reminder (0 minutes) at once.
    const bookings: { id: string; deadline: number; createdAt: number }[] = [];
    for (let i = 0; i < rooms; i++) {
      const zone = `approval-room-${i}`;
      await seedZone(database.db, workspace, zone);
      const bookingPolicy = { autoConfirm: false, approvers: ['approver'], approvalDeadlineMinutes: 1, approvalReminderMinutes: 0 };
      const registered = await callService(nodes[i % 2]!.url, admin, 'POST', '/booking/v1/resources', { resourceType: 'zone', resourceId: zone, bookingPolicy });
      expect(registered.status, JSON.stringify(registered.body)).to.equal(201);
      const start = started + 70_000 + i * 1_000;
      const body = { resourceType: 'zone', resourceId: zone, title: 'Needs approval', startTime: new Date(start).toISOString(), endTime: new Date(start + 30 * 60_000).toISOString() };
      const created = await callService(nodes[i % 2]!.url, booker, 'POST', '/booking/v1/bookings', body);
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      bookings.push({ id: created.body.id, deadline: start - 60_000, createdAt: Date.parse(created.body.createdAt) });
    }

    // The faults: the database out of reach for 3 s, then one node killed outright.
    await sleep(Math.max(0, started + 12_000 - Date.now()));
    await relay.cutAndRefuse();
    await sleep(3_000);
    await relay.accept();
    await sleep(Math.max(0, started + 17_000 - Date.now()));
    nodes[0]!.child.kill('SIGKILL');
    await nodes[0]!.exited;

    // Every deadline has passed by 21 s; give each its 20 s and read the log.
    await sleep(Math.max(0, started + 21_000 + lateLimitMs + 1_000 - Date.now()));
    const events = await database.db
      .selectFrom('events')
      .select(['event_type', 'data', 'recorded_at'])
      .where('event_type', 'in', ['BookingCancelled', 'BookingApprovalReminderIssued'])
      .execute();
    const late: string[] = [];
    const delays = { deadline: [] as number[], reminder: [] as number[] };
    for (const booking of bookings) {
      const mine = events.filter((e) => (e.data.booking as { id: string }).id === booking.id);
      const cancels = mine.filter((e) => e.event_type === 'BookingCancelled');
      const reminders = mine.filter((e) => e.event_type === 'BookingApprovalReminderIssued');
      expect(cancels, `deadline of ${booking.id}`).to.have.length(1);
      expect(reminders, `reminder of ${booking.id}`).to.have.length(1);
      expect((cancels[0]!.data.booking as { reason: string }).reason).to.equal('not approved in time');
      const cancelDelay = cancels[0]!.recorded_at.getTime() - booking.deadline;
      const reminderDelay = reminders[0]!.recorded_at.getTime() - booking.createdAt;
      delays.deadline.push(cancelDelay);
      delays.reminder.push(reminderDelay);
      if (cancelDelay > lateLimitMs || reminderDelay > lateLimitMs) late.push(`${booking.id}: deadline +${cancelDelay} ms, reminder +${reminderDelay} ms`);
      expect(cancelDelay, 'a deadline fires no earlier than its time').to.be.at.least(0);
    }
    console.log(`      ${rooms} deadlines, latest +${Math.max(...delays.deadline)} ms; ${rooms} reminders, latest +${Math.max(...delays.reminder)} ms`);
    expect(late, late.join('\n')).to.deep.equal([]);
    expect(nodes[1]!.child.exitCode, nodes[1]!.output()).to.equal(null);
  });
});
