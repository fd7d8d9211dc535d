import type { Level } from '../../domain/access/principal.js';
import { utcTextOfEpochMs } from '../../domain/booking/booking-time.js';
import type { CalendarPassword, CalendarPasswordListScope } from '../../domain/calendar/calendar-password.js';
import { pageOf, type Page, type PageOf } from '../../domain/page.js';
import type { Executor } from '../db/database.js';
import type { CalendarPasswordRow } from '../db/tables/calendar-passwords.table.js';

/**
 * Calendar passwords are credentials, not facts of the booking log: their own table, written
 * directly (no event), never rebuilt from the log, and every sign-in reads its row afresh.
 */

/** A password with the hash a sign-in checks it against. */
export type StoredCalendarPassword = CalendarPassword & { passwordHash: string };

const passwordOf = (row: CalendarPasswordRow): CalendarPassword => ({
  id: row.id,
  username: row.username,
  label: row.label,
  owner: { sub: row.owner_sub, workspace: row.workspace, level: row.owner_level as Level, groups: row.owner_groups, email: row.owner_email },
  createdAt: utcTextOfEpochMs(row.created_at.getTime()),
  expiresAt: utcTextOfEpochMs(row.expires_at.getTime()),
});

export async function insertCalendarPassword(db: Executor, password: StoredCalendarPassword): Promise<void> {
  await db
    .insertInto('calendar_passwords')
    .values({
      id: password.id,
      username: password.username,
      label: password.label,
      workspace: password.owner.workspace,
      owner_sub: password.owner.sub,
      owner_level: password.owner.level,
      owner_groups: password.owner.groups,
      owner_email: password.owner.email,
      password_hash: password.passwordHash,
      created_at: new Date(password.createdAt),
      expires_at: new Date(password.expiresAt),
    })
    .execute();
}

/** The password of this username with its hash, or null (none, or deleted): one read of the unique index. */
export async function findCalendarPasswordByUsername(db: Executor, username: string): Promise<StoredCalendarPassword | null> {
  const row = await db.selectFrom('calendar_passwords').selectAll().where('username', '=', username).executeTakeFirst();
  return row ? { ...passwordOf(row), passwordHash: row.password_hash } : null;
}

export async function findCalendarPassword(db: Executor, id: string): Promise<CalendarPassword | null> {
  const row = await db.selectFrom('calendar_passwords').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? passwordOf(row) : null;
}

/** One page of the passwords in `scope` (expired ones too, until deleted), oldest first. */
export async function listCalendarPasswords(db: Executor, scope: CalendarPasswordListScope, page: Page): Promise<PageOf<CalendarPassword>> {
  let base = db.selectFrom('calendar_passwords').where((eb) => (scope.workspace === null ? eb('workspace', 'is', null) : eb('workspace', '=', scope.workspace)));
  if (scope.sub !== null) base = base.where('owner_sub', '=', scope.sub);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('created_at').orderBy('id').limit(page.limit).offset((page.page - 1) * page.limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(rows.map(passwordOf), Number(count.total), page);
}

/** Deletes the password `id`; false when it was already gone. */
export async function deleteCalendarPassword(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('calendar_passwords').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
