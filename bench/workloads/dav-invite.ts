import { sql } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDatabase } from '../../src/infra/db/database.js';
import { loadNow } from '../free-search-bench.js';
import { inTurns } from '../in-turns.js';
import type { Measurement } from '../measure.js';
import { fromMeasurement, type BenchContext, type Workload } from '../workload.js';
import { creates, seriesCreates } from './creates.js';
import { benchCalendar, invitations, roomAddress } from './invitations.js';

const day = 24 * 3_600_000;
const year = 365 * day;
const rounds = 2;
const weekly = 'FREQ=WEEKLY;COUNT=20';
const calendarHeaders = { 'content-type': 'text/calendar; charset=utf-8' };

/** The room's ATTENDEE line of a stored event (lines unfolded): what the next GET shows the organizer. */
const roomLine = (text: string, address: string) => text.replace(/\r\n[ \t]/g, '').split('\r\n').find((line) => /^ATTENDEE[;:]/i.test(line) && line.toLowerCase().endsWith(address.toLowerCase()));

/** One invitation PUT outside the measured runs, then its GET: the room must be ACCEPTED, or the runs would measure refusals. */
async function acceptedOnce(ctx: BenchContext, fromMs: number, extra: string[]): Promise<void> {
  const { next, uids } = invitations(ctx.data.spread, fromMs, extra);
  const { path, body } = next();
  const headers = { authorization: `Bearer ${ctx.token}` };
  const put = await fetch(`${ctx.url}${path}`, { method: 'PUT', headers: { ...headers, ...calendarHeaders }, body });
  if (put.status !== 201) throw new Error(`the sanity invitation answered ${put.status}: ${await put.text()}`);
  const text = await (await fetch(`${ctx.url}${path}`, { headers })).text();
  const line = roomLine(text, roomAddress(ctx.data.spread[0]!));
  if (!line || !/;PARTSTAT=ACCEPTED[;:]/i.test(line)) throw new Error(`the sanity invitation ${uids[0]} left the room ${line ?? 'absent'}`);
}

/** 2xx answers of a measurement: every answer but the unexpected statuses (errors and timeouts are no answers). */
const answered = (m: Measurement) => m.requests - Object.entries(m.unexpected).reduce((n, [status, count]) => (/^\d+$/.test(status) ? n + count : n), 0);

/**
 * After the runs: how many of the UIDs handed out are confirmed bookings (occurrences for a series)
 * and whether every 201 booked its room (a request still in flight when a run stopped may book too,
 * so up to `connections` a run more is fine); the first stored events are read back for ACCEPTED.
 */
async function bookedCheck(ctx: BenchContext, m: Measurement, uids: string[], perInvitation: number): Promise<{ text: string; ok: boolean }> {
  await sleep(1_000);
  const db = createDatabase(ctx.database);
  let booked: number;
  try {
    const { rows } = await sql<{ n: string }>`select count(*) as n from bookings where calendar_uid = any(${uids}) and status = 'confirmed' and not is_series_parent`.execute(db);
    booked = Number(rows[0]!.n) / perInvitation;
  } finally {
    await db.destroy();
  }
  const headers = { authorization: `Bearer ${ctx.token}` };
  let accepted = 0;
  for (const uid of uids.slice(0, 10)) {
    const text = await (await fetch(`${ctx.url}${benchCalendar}${uid}.ics`, { headers })).text();
    if (/^ATTENDEE[^\r\n]*PARTSTAT=ACCEPTED/im.test(text.replace(/\r\n[ \t]/g, ''))) accepted += 1;
  }
  const ok = booked >= answered(m) && booked <= answered(m) + rounds * ctx.connections && accepted === 10;
  return { text: `${ok ? '' : 'CHECK FAILED: '}${answered(m)} answered 201, ${booked} events booked their room${perInvitation > 1 ? ` (${perInvitation} occurrences each)` : ''}, the first 10 read back ${accepted === 10 ? 'ACCEPTED' : `ACCEPTED only ${accepted}`}`, ok };
}

/** The REST side and the invitation side, in turns (rest, invite, rest, invite), each round on fresh slots. */
async function againstRest(
  ctx: BenchContext,
  sides: { rest: (round: number) => Promise<Measurement>; invite: (round: number) => Promise<Measurement> },
): Promise<[Measurement, Measurement]> {
  const [rest, invite] = await inTurns(rounds, ctx.seconds, [sides.rest, sides.invite]);
  return [rest!, invite!];
}

const ratios = (rest: Measurement, invite: Measurement) => ({ p95: invite.p95 / rest.p95, throughput: rest.perSecond / invite.perSecond });

/**
 * The invitations' target: an invitation of one room (a PUT of a new event, contract §26) costs
 * at most 2 × a REST create, at p95 and in throughput. Invitations at free half-hours spread over
 * the 200 resources as the create workload's creates are, against those creates, in turns. Report only.
 */
export const davInvite: Workload = {
  name: 'dav-invite',
  async run(ctx) {
    const base = ctx.futureMs + 7 * year;
    await acceptedOnce(ctx, base + 2 * rounds * 30 * day, []);
    const loadBefore = loadNow();
    const uids: string[] = [];
    const [rest, invite] = await againstRest(ctx, {
      rest: (round) => ctx.http({ name: `create, ${ctx.data.spread.length} resources (in turns)`, method: 'POST', next: creates(ctx.data.spread, base + round * 30 * day), expect: 201 }),
      invite: (round) => {
        const generated = invitations(ctx.data.spread, base + (rounds + round) * 30 * day);
        return ctx.http({ name: `CalDAV invitation of one room, ${ctx.data.spread.length} rooms (in turns)`, method: 'PUT', headers: calendarHeaders, next: generated.next, expect: 201 }).finally(() => uids.push(...generated.uids));
      },
    });
    const check = await bookedCheck(ctx, invite, uids, 1);
    const { p95, throughput } = ratios(rest, invite);
    return [
      { ...fromMeasurement(rest), note: `${loadBefore} before, ${loadNow()} after` },
      {
        ...fromMeasurement(invite, () => ({ text: 'p95 ≤ 2 × create, throughput ≥ 0.5 × create', met: p95 <= 2 && throughput <= 2 && check.ok })),
        note: `p95 ${p95.toFixed(2)} ×, create ÷ invitation throughput ${throughput.toFixed(2)} ×; ${check.text}`,
      },
    ];
  },
};

/**
 * The invitations' target: an invitation of one room to a weekly ×20 series (RRULE, UTC) p95 <
 * 500 ms, beside the same series created through REST (POST /bookings/bulk), in turns; each run's
 * series start in their own 140 days (the series span 133). Report only.
 */
export const davInviteSeries: Workload = {
  name: 'dav-invite-series',
  async run(ctx) {
    const base = ctx.futureMs + 7 * year + 150 * day;
    const region = (n: number) => base + n * 140 * day;
    await acceptedOnce(ctx, region(2 * rounds), [`RRULE:${weekly}`]);
    const loadBefore = loadNow();
    const uids: string[] = [];
    const [rest, invite] = await againstRest(ctx, {
      rest: (round) => ctx.http({ name: 'REST series, weekly ×20 (in turns)', method: 'POST', next: seriesCreates(ctx.data.spread, region(round), weekly), expect: 201 }),
      invite: (round) => {
        const generated = invitations(ctx.data.spread, region(rounds + round), [`RRULE:${weekly}`]);
        return ctx.http({ name: 'CalDAV invitation of one room, weekly ×20 (in turns)', method: 'PUT', headers: calendarHeaders, next: generated.next, expect: 201 }).finally(() => uids.push(...generated.uids));
      },
    });
    const check = await bookedCheck(ctx, invite, uids, 20);
    const { p95, throughput } = ratios(rest, invite);
    return [
      { ...fromMeasurement(rest), note: `${loadBefore} before, ${loadNow()} after` },
      {
        ...fromMeasurement(invite, () => ({ text: 'p95 < 500 ms', met: invite.p95 < 500 && check.ok })),
        note: `p95 ${p95.toFixed(2)} × REST series, REST ÷ invitation throughput ${throughput.toFixed(2)} ×; ${check.text}`,
      },
    ];
  },
};
