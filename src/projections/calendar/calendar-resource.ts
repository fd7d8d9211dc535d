import { sql } from 'kysely';
import type { Executor } from '../../infra/db/database.js';
import { compileOnce, holesOf } from '../../infra/db/sql-template.js';

const calendarResource = compileOnce(sql`
  select id, workspace, coalesce(resource_name, resource_id) as name, xmin::text as version
  from resources where id = ${holesOf().id}::uuid and deleted_at is null`);

/** A live resource as its feed names it (its name, else its zone/device id), with its row version. */
export type CalendarResource = { id: string; workspace: string; name: string; version: string };

export async function findCalendarResource(db: Executor, bookableResourceId: string): Promise<CalendarResource | null> {
  const { rows } = await db.executeQuery<CalendarResource>(calendarResource.fill({ id: bookableResourceId }));
  return rows[0] ?? null;
}
