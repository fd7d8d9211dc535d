import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../../src/domain/access/principal.js';
import {
  calendarPasswordExpiry,
  calendarPasswordListScope,
  calendarPasswordUsername,
  canManageCalendarPassword,
  couldBeCalendarPasswordUsername,
  isCalendarPasswordExpired,
} from '../../../src/domain/calendar/calendar-password.js';

const workspace = '3f1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77';
const otherWorkspace = '9d2e4f60-1a3b-4c5d-8e7f-001122334455';
const principal = (sub: string, level: Principal['level'], ws: string | null = workspace): Principal => ({ sub, workspace: ws, level, groups: [], email: null });

describe('calendar password usernames (contract §25)', () => {
  it('name the sub and the workspace, end in the suffix, and hold only URL-unreserved characters', () => {
    expect(calendarPasswordUsername(principal('alice', 4), 'k3x9q2mzb7wd')).to.equal(`alice.${workspace}.k3x9q2mzb7wd`);
    const odd = calendarPasswordUsername(principal('auth0|5f: 3@x.org', 4), 'abcdefghijkl');
    expect(odd).to.equal(`auth0_5f__3_x_org.${workspace}.abcdefghijkl`);
    expect(odd).not.to.include(':');
    expect(odd).to.match(/^[A-Za-z0-9_.-]+$/);
  });

  it('say "system" for an LV1 token without a workspace, and cut a long sub to 40 characters', () => {
    expect(calendarPasswordUsername(principal('root', 1, null), 's')).to.equal('root.system.s');
    const long = calendarPasswordUsername(principal('x'.repeat(300), 4), 'abcdefghijkl');
    expect(long.split('.')[0]).to.have.length(40);
    expect(couldBeCalendarPasswordUsername(long)).to.equal(true);
  });

  it('are the only strings a sign-in looks up', () => {
    expect(couldBeCalendarPasswordUsername(`alice.${workspace}.k3x9q2mzb7wd`)).to.equal(true);
    for (const text of ['', 'a:b', 'a b', 'ä', 'a\u0000b', 'a/b', 'a'.repeat(95)]) expect(couldBeCalendarPasswordUsername(text), JSON.stringify(text)).to.equal(false);
  });
});

describe('calendar password lifetime', () => {
  const now = Temporal.Instant.from('2026-03-01T10:00:00Z');

  it('expires CALENDAR_PASSWORD_DAYS after creation, and is refused from that instant on', () => {
    const expiresAt = calendarPasswordExpiry(now, 365).toString();
    expect(expiresAt).to.equal('2027-03-01T10:00:00Z');
    expect(isCalendarPasswordExpired({ expiresAt }, Temporal.Instant.from('2027-03-01T09:59:59.999Z'))).to.equal(false);
    expect(isCalendarPasswordExpired({ expiresAt }, Temporal.Instant.from('2027-03-01T10:00:00Z'))).to.equal(true);
  });
});

describe('who lists and deletes a calendar password', () => {
  const alices = { owner: principal('alice', 4) };

  it('its creator (same sub and workspace), an LV2 of its workspace, and any LV1', () => {
    expect(canManageCalendarPassword(principal('alice', 4), alices)).to.equal(true);
    expect(canManageCalendarPassword(principal('alice', 5), alices)).to.equal(true);
    expect(canManageCalendarPassword(principal('admin', 2), alices)).to.equal(true);
    expect(canManageCalendarPassword(principal('root', 1, otherWorkspace), alices)).to.equal(true);
    expect(canManageCalendarPassword(principal('root', 1, null), alices)).to.equal(true);
  });

  it('nobody else: another user, an LV3, another workspace (its LV2, or the same sub there)', () => {
    expect(canManageCalendarPassword(principal('bob', 4), alices)).to.equal(false);
    expect(canManageCalendarPassword(principal('group-admin', 3), alices)).to.equal(false);
    expect(canManageCalendarPassword(principal('admin', 2, otherWorkspace), alices)).to.equal(false);
    expect(canManageCalendarPassword(principal('alice', 4, otherWorkspace), alices)).to.equal(false);
  });

  it('lists the workspace for LV1–LV2, else the own ones of the caller', () => {
    expect(calendarPasswordListScope(principal('admin', 2))).to.deep.equal({ workspace, sub: null });
    expect(calendarPasswordListScope(principal('root', 1, null))).to.deep.equal({ workspace: null, sub: null });
    expect(calendarPasswordListScope(principal('lead', 3))).to.deep.equal({ workspace, sub: 'lead' });
    expect(calendarPasswordListScope(principal('guest', 5))).to.deep.equal({ workspace, sub: 'guest' });
  });
});
