import { expect } from 'chai';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { registerZone, setClock } from '../api/booking/booking-api.js';
import { eventPath, putEvent, storedEvent } from '../api/dav/invitation-requests.js';

/** Events per run; FUZZ_RUNS for a longer hunt, FUZZ_SEED to replay one. */
const runs = Math.max(100, Math.floor(Number(process.env.FUZZ_RUNS || 2500) / 8));
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2_147_483_647;

/** Values a client may send, well formed or not: times, zones, rules, durations, addresses, junk. */
const times = ['20270302T090000Z', '20270302T100000Z', '20270302T090000', '20270302', '20271302T090000Z', '20270230T090000Z', '2027-03-02T09:00:00Z', 'soon', '', '99991231T235959Z', '00010101T000000Z'];
const zones = ['Europe/Berlin', 'W. Europe Standard Time', 'Mars/Olympus', '', 'UTC', 'America/New_York', '"Europe/Berlin"'];
const rules = ['FREQ=WEEKLY;COUNT=5', 'FREQ=DAILY', 'FREQ=SECONDLY', 'FREQ=WEEKLY;UNTIL=20270401T000000Z', 'FREQ=YEARLY;COUNT=100000', 'FREQ=MONTHLY;BYDAY=-1FR', 'FREQ=WEEKLY;BYDAY=XX', 'COUNT=3', '', 'FREQ=DAILY;INTERVAL=0'];
const durations = ['PT1H', 'P1D', '-PT1H', 'PT0S', 'P1W', 'X', 'PT999999H'];

describe('fuzzing invitations (contract §26): any iCalendar PUT answers below 500, and what it stored agrees with what it booked', function () {
  this.timeout(600_000);
  let server: TestServer;
  let room: string;
  let alice: string;

  before(async () => {
    server = await startTestServer();
    room = await registerZone(server, 'fuzz-invite-room', { bookingPolicy: { maxAdvanceDays: 3650 } });
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    setClock(server, '2027-03-01T08:00:00Z');
  });
  after(() => server.stop());

  it('holds for generated events', async () => {
    const property = fc.oneof(
      fc.constantFrom(...times).map((t) => `DTSTART:${t}`),
      fc.constantFrom(...times).map((t) => `DTEND:${t}`),
      fc.tuple(fc.constantFrom(...zones), fc.constantFrom(...times)).map(([z, t]) => `DTSTART;TZID=${z}:${t}`),
      fc.constantFrom(...times).map((t) => `DTSTART;VALUE=DATE:${t.slice(0, 8)}`),
      fc.constantFrom(...durations).map((d) => `DURATION:${d}`),
      fc.constantFrom(...rules).map((r) => `RRULE:${r}`),
      fc.constantFrom(...times).map((t) => `EXDATE:${t}`),
      fc.constantFrom(...times).map((t) => `RECURRENCE-ID:${t}`),
      fc.constantFrom('CANCELLED', 'TENTATIVE', 'CONFIRMED', 'X').map((s) => `STATUS:${s}`),
      fc.constantFrom('mailto:alice@example.com', 'mailto:ALICE@EXAMPLE.COM', 'mailto:eve@example.com', 'urn:x', '').map((o) => `ORGANIZER:${o}`),
      fc
        .tuple(fc.constantFrom(`mailto:${'ROOM'}@resources.invalid`, 'urn:uuid:ROOM', 'mailto:bob@example.com', 'mailto:00000000-0000-4000-8000-000000000000@resources.invalid', 'http://x'), fc.constantFrom('', ';SCHEDULE-AGENT=CLIENT', ';SCHEDULE-AGENT=SERVER', ';PARTSTAT=ACCEPTED', ';X-BOOKING-ID=1'))
        .map(([a, p]) => `ATTENDEE${p}:${a}`),
      fc.string({ maxLength: 40 }).map((s) => `SUMMARY:${s.replace(/[\r\n]/g, ' ')}`),
      fc.constantFrom('SEQUENCE:1', 'SEQUENCE:-1', 'SEQUENCE:x', 'UID:fuzz-same', 'UID:', 'METHOD:REQUEST', 'BEGIN:VALARM', 'END:VALARM', 'X-FOO:bar'),
      fc.string({ maxLength: 30 }),
    );
    const component = fc.constantFrom('VEVENT', 'VEVENT', 'VEVENT', 'VEVENT', 'VEVENT', 'VEVENT', 'VTODO', 'VJOURNAL');
    /** A valid invitation of the room (an hour on a day drawn), then up to three properties replaced, added or taken out. */
    const base = (day: number) => [
      `DTSTART:202703${String(2 + day).padStart(2, '0')}T090000Z`,
      `DTEND:202703${String(2 + day).padStart(2, '0')}T100000Z`,
      'ORGANIZER:mailto:alice@example.com',
      `ATTENDEE;CUTYPE=ROOM:mailto:ROOM@resources.invalid`,
      'SUMMARY:Fuzzed',
    ];
    const keyOf = (line: string) => /^[A-Z-]+/.exec(line)?.[0] ?? line;
    const event = fc
      .tuple(component, fc.integer({ min: 0, max: 20 }), fc.array(fc.tuple(property, fc.constantFrom('replace', 'add', 'drop')), { maxLength: 3 }), fc.nat(), fc.boolean())
      .map(([kind, day, changes, cut, crlf]) => {
        let lines = base(day);
        for (const [line, how] of changes) {
          const key = keyOf(line);
          if (how === 'drop') lines = lines.filter((l) => keyOf(l) !== key);
          else if (how === 'replace') lines = [...lines.filter((l) => keyOf(l) !== key), line];
          else lines = [...lines, line];
        }
        const text = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//fuzz//EN', `BEGIN:${kind}`, 'UID:fuzz-event', 'DTSTAMP:20270301T080000Z', ...lines, `END:${kind}`, 'END:VCALENDAR', '']
          .join(crlf ? '\r\n' : '\n')
          .replaceAll('ROOM', room);
        // Some bodies cut short, as a dropped connection or a broken client sends them.
        return cut % 11 === 0 ? text.slice(0, cut % (text.length + 1)) : text;
      });
    let n = 0;
    const tally = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(event, fc.constantFrom('a.ics', 'a.ics', 'b.ics', 'new.ics'), async (text, name) => {
        n += 1;
        const path = eventPath('alice', name === 'new.ics' ? `new-${n}.ics` : name);
        // One UID per name (another name with the same UID is a refusal of its own, tried on purpose by a UID line above).
        const res = await putEvent(server, alice, path, text.replace('UID:fuzz-event', `UID:fuzz-${path.split('/').at(-1)}`));
        const where = `PUT ${path}: ${res.status} ${res.text.slice(0, 300)}\nbody:\n${text.slice(0, 600)}`;
        tally.set(res.status, (tally.get(res.status) ?? 0) + 1);
        expect(res.status, where).to.be.below(500);
        if (res.status !== 201 && res.status !== 204) return;
        // What the stored event answers is what was booked: every accepted or tentative room names a live booking of that event.
        const stored = await storedEvent(server, alice, path);
        expect(stored.status, where).to.equal(200);
        // Rooms only: another attendee's PARTSTAT is the client's to write (§26 leaves it untouched).
        const rooms = stored.attendees.filter((a) => a.address.toLowerCase().includes(room) || a.address.toLowerCase().includes('@resources.invalid'));
        for (const attendee of rooms.filter((a) => a.partstat === 'ACCEPTED' || a.partstat === 'TENTATIVE')) {
          const booking = await server.request('GET', `/booking/v1/bookings/${attendee.bookingId}`, { token: alice });
          expect(booking.status, where).to.equal(200);
          expect(booking.body.status, where).to.be.oneOf(['pending', 'confirmed']);
        }
      }),
      { numRuns: runs, seed },
    );
    console.log(`      invitation fuzz (seed ${seed}): ${[...tally].sort(([a], [b]) => a - b).map(([status, count]) => `${status} × ${count}`).join(', ')}`);
    expect(tally.get(201) ?? 0, 'some generated events are stored').to.be.above(0);
  });
});
