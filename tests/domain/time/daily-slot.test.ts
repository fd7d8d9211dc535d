import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { isDailyRunDue, latestDailySlot, msUntilNextDailySlot } from '../../../src/domain/time/daily-slot.js';

const at = (iso: string) => Temporal.Instant.from(iso);
const hourMs = 3_600_000;

describe('a daily run at a fixed UTC hour', () => {
  it('has its latest slot today once the hour has come, yesterday before it', () => {
    expect(latestDailySlot(at('2026-11-23T03:00:00Z'), 3).toString()).to.equal('2026-11-23T03:00:00Z');
    expect(latestDailySlot(at('2026-11-23T22:30:00Z'), 3).toString()).to.equal('2026-11-23T03:00:00Z');
    expect(latestDailySlot(at('2026-11-23T02:59:59.999Z'), 3).toString()).to.equal('2026-11-22T03:00:00Z');
    expect(latestDailySlot(at('2026-01-01T00:00:00Z'), 0).toString()).to.equal('2026-01-01T00:00:00Z');
    expect(latestDailySlot(at('1969-12-31T02:00:00Z'), 3).toString()).to.equal('1969-12-30T03:00:00Z');
  });

  it('waits until the next slot, a day at the most', () => {
    expect(msUntilNextDailySlot(at('2026-11-23T02:00:00Z'), 3)).to.equal(hourMs);
    expect(msUntilNextDailySlot(at('2026-11-23T03:00:00Z'), 3)).to.equal(24 * hourMs);
    expect(msUntilNextDailySlot(at('2026-11-23T04:00:00Z'), 3)).to.equal(23 * hourMs);
  });

  it('is due when it never ran, at the slot, and at a start after a missed slot; not again the same day', () => {
    const now = at('2026-11-23T10:00:00Z');
    expect(isDailyRunDue(null, now, 3)).to.equal(true);
    // A run older than a day always missed a slot: the worker catches up once at start.
    expect(isDailyRunDue(at('2026-11-22T09:00:00Z'), now, 3)).to.equal(true);
    // The worker was down at 03:00 today: the run of yesterday's 03:00 is not today's.
    expect(isDailyRunDue(at('2026-11-22T03:00:00Z'), now, 3)).to.equal(true);
    expect(isDailyRunDue(at('2026-11-23T03:00:00Z'), now, 3)).to.equal(false);
    expect(isDailyRunDue(at('2026-11-23T09:59:00Z'), now, 3)).to.equal(false);
    // Before today's hour, yesterday's run is the latest one due.
    expect(isDailyRunDue(at('2026-11-22T03:00:01Z'), at('2026-11-23T02:59:00Z'), 3)).to.equal(false);
    expect(isDailyRunDue(at('2026-11-23T02:59:00Z'), at('2026-11-23T03:00:00Z'), 3)).to.equal(true);
  });
});
