import { sql } from 'kysely';
import { resourceStreamId } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { compileOnce, holesOf } from '../../infra/db/sql-template.js';

const calendarResource = compileOnce(sql`
  select r.id, r.workspace, coalesce(r.resource_name, r.resource_id) as name, r.xmin::text as version, s.stream_revision
  from resources r left join streams s on s.stream_id = ${holesOf().streamId}
  where r.id = ${holesOf().id}::uuid and r.deleted_at is null`);

/**
 * A live resource as its feed names it (its name, else its zone/device id), with its row version
 * and the last revision of its stream (every change to it or its bookings moves it on).
 */
export type CalendarResource = { id: string; workspace: string; name: string; version: string; streamRevision: number };

export async function findCalendarResource(db: Executor, bookableResourceId: string): Promise<CalendarResource | null> {
  const { rows } = await db.executeQuery<Omit<CalendarResource, 'streamRevision'> & { stream_revision: number | null }>(
    calendarResource.fill({ id: bookableResourceId, streamId: resourceStreamId(bookableResourceId.toLowerCase()) }),
  );
  const row = rows[0];
  if (!row) return null;
  const { stream_revision: revision, ...resource } = row;
  return { ...resource, streamRevision: Number(revision ?? -1) };
}
