import type { Temporal } from 'temporal-polyfill';
import { isSystemAdmin, isWorkspaceAdmin, type Principal } from '../access/principal.js';

/**
 * A calendar password (contract §25) as the service knows it, without its hash: the generated
 * username a calendar client signs in with, and whom it acts as — its creator, with the level,
 * groups and email of the token that created it.
 */
export type CalendarPassword = {
  id: string;
  username: string;
  label: string;
  owner: Principal;
  createdAt: string;
  expiresAt: string;
};

/** A label names the device or app a password was made for; longer ones answer 400 (openapi/booking.yaml mirrors it). */
export const maxCalendarPasswordLabelLength = 100;

/** How much of the creator's `sub` its usernames show: enough to recognise, short enough to type. */
const maxSubInUsername = 40;

/** What stands for the workspace in the username of an LV1 token that carries none. */
const noWorkspace = 'system';

/**
 * `<sub>.<workspace>.<suffix>`: the creator's `sub` with every character outside `A-Z a-z 0-9 _ -`
 * turned into `_` (cut to 40), its workspace uuid (`system` for an LV1 without one), and the
 * random `suffix` that makes it unique. Only URL-unreserved characters: no `:` (which would end a
 * Basic username), nothing to escape in a URL's user part or in a DAV principal's path.
 */
export function calendarPasswordUsername(owner: Pick<Principal, 'sub' | 'workspace'>, suffix: string): string {
  const sub = owner.sub.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, maxSubInUsername);
  return `${sub}.${owner.workspace ?? noWorkspace}.${suffix}`;
}

/** The longest username calendarPasswordUsername makes (a uuid workspace, a suffix of at most 16). */
const maxUsernameLength = maxSubInUsername + 1 + 36 + 1 + 16;

/** Whether `text` could be a username calendarPasswordUsername made: anything else is not looked up. */
export const couldBeCalendarPasswordUsername = (text: string): boolean => text.length <= maxUsernameLength && /^[A-Za-z0-9_.-]+$/.test(text);

/** When a password made now stops working: CALENDAR_PASSWORD_DAYS later. */
export const calendarPasswordExpiry = (now: Temporal.Instant, days: number): Temporal.Instant => now.add({ hours: 24 * days });

export const isCalendarPasswordExpired = (password: Pick<CalendarPassword, 'expiresAt'>, now: Temporal.Instant): boolean =>
  Date.parse(password.expiresAt) <= now.epochMilliseconds;

const isCreator = (actor: Principal, owner: Principal) => actor.sub === owner.sub && actor.workspace === owner.workspace;

/**
 * Whose passwords a caller lists and may delete: its own (same `sub` and workspace), and as LV2
 * every one of its workspace; LV1 everyone's (its list shows those of its token's workspace).
 * Everything else is invisible to it: 404, never 403.
 */
export function canManageCalendarPassword(actor: Principal, password: Pick<CalendarPassword, 'owner'>): boolean {
  if (isCreator(actor, password.owner)) return true;
  return isWorkspaceAdmin(actor) && (isSystemAdmin(actor) || actor.workspace === password.owner.workspace);
}

/** The passwords a list shows: the workspace's for LV1–LV2, else the caller's own. */
export type CalendarPasswordListScope = { workspace: string | null; sub: string | null };

export const calendarPasswordListScope = (actor: Principal): CalendarPasswordListScope => ({
  workspace: actor.workspace,
  sub: isWorkspaceAdmin(actor) ? null : actor.sub,
});

/**
 * Password checks one username may cost per minute (a token bucket: ten at once, then one every
 * six seconds). A password known good is not checked again, so in practice only wrong ones count:
 * at this rate a guess of a 192-bit password is hopeless, and nobody makes the service run scrypt
 * more than ten times a minute for one username.
 */
export const calendarPasswordChecksPerMinute = 10;
