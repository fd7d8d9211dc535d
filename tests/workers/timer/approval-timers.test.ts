import { expect } from 'chai';
import { fireDueTimers } from '../../../src/workers/timer/fire-due-timers.js';
import { bookingBody, registerZone, setClock } from '../../api/booking/booking-api.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingEventsOf, bookingEventTypesOf, timersOf } from '../worker-test-kit.js';

const firing = { batchSize: 100, leaseMs: 60_000, retryMs: 1_000 };

// Contract §24: deadlines and one reminder of pending bookings, through the durable timers.
describe('timers: approval deadline and approval reminder', () => {
  let server: TestServer;
  let day = 0;
  let date: string;
  const at = (time: string) => setClock(server, `${date}T${time}Z`);
  const fire = () => fireDueTimers(server.services, firing);
  const typesOf = (id: string) => bookingEventTypesOf(server.services, id);

  async function book(zoneId: string): Promise<string> {
    const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, `${date}T12:00:00Z`, `${date}T13:00:00Z`) });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  }

  before(async () => {
    server = await startTestServer();
    await registerZone(server, 'zone-deadline', { bookingPolicy: { autoConfirm: false, approvers: ['carol'], approvalDeadlineMinutes: 60, approvalReminderMinutes: 30 } });
  });
  after(() => server.stop());
  beforeEach(() => {
    day += 1;
    date = `2030-02-${String(day).padStart(2, '0')}`;
    at('08:00:00');
  });

  it('emits booking.approval_reminder once, approvalReminderMinutes after the booking was made, naming the approvers', async () => {
    const id = await book('zone-deadline');
    at('08:29:59');
    await fire();
    expect(await typesOf(id)).to.deep.equal(['BookingCreated']);
    at('08:30:00');
    await fire();
    at('08:40:00');
    await fire();
    const reminders = (await bookingEventsOf(server.services, id)).filter((e) => e.type === 'BookingApprovalReminderIssued');
    expect(reminders).to.have.length(1);
    expect(reminders[0]!.data).to.deep.include({ approvers: ['carol'], by: 'system' });
    expect((await timersOf(server.services.db, id)).map((t) => t.kind)).to.not.include('approval_reminder');
  });

  it('a decision before the reminder drops it', async () => {
    const id = await book('zone-deadline');
    const carol = server.token({ level: 'LV4', sub: 'carol' });
    expect((await server.request('PATCH', `/booking/v1/bookings/${id}/confirm`, { token: carol })).status).to.equal(200);
    expect((await timersOf(server.services.db, id)).map((t) => t.kind)).to.not.include('approval_reminder');
    at('08:30:00');
    await fire();
    expect(await typesOf(id)).to.deep.equal(['BookingCreated', 'BookingConfirmed']);
  });

  it('cancels a booking still pending approvalDeadlineMinutes before its start, "not approved in time"', async () => {
    const id = await book('zone-deadline');
    at('08:30:00');
    await fire();
    at('10:59:59');
    await fire();
    expect((await server.request('GET', `/booking/v1/bookings/${id}`)).body.status).to.equal('pending');
    at('11:00:00');
    await fire();
    const read = await server.request('GET', `/booking/v1/bookings/${id}`);
    expect(read.body).to.include({ status: 'cancelled', cancelledBy: 'system', reason: 'not approved in time' });
    expect(await timersOf(server.services.db, id)).to.deep.equal([]);
  });
});
