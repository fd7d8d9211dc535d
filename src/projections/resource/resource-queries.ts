import type { Resource, ResourceType } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { pageOf, type Page, type PageOf } from '../../domain/page.js';
import { rowToResource } from './resource-row.js';

/** A live (not removed) resource by id. */
export async function findResource(db: Executor, id: string): Promise<Resource | null> {
  const row = await db.selectFrom('resources').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  return row ? rowToResource(row) : null;
}

/** The live registration of a zone or device in a workspace. */
export async function findRegistration(db: Executor, workspace: string, resourceType: ResourceType, resourceId: string): Promise<Resource | null> {
  const row = await db
    .selectFrom('resources')
    .selectAll()
    .where('workspace', '=', workspace)
    .where('resource_type', '=', resourceType)
    .where('resource_id', '=', resourceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? rowToResource(row) : null;
}

export type ResourceFilter = { workspace?: string; resourceType?: ResourceType; isActive?: boolean };
export async function listResources(db: Executor, filter: ResourceFilter, page: Page): Promise<PageOf<Resource>> {
  const base = db
    .selectFrom('resources')
    .where('deleted_at', 'is', null)
    .$if(filter.workspace !== undefined, (q) => q.where('workspace', '=', filter.workspace!))
    .$if(filter.resourceType !== undefined, (q) => q.where('resource_type', '=', filter.resourceType!))
    .$if(filter.isActive !== undefined, (q) => q.where('is_active', '=', filter.isActive!));
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('created_at').orderBy('id').limit(page.limit).offset((page.page - 1) * page.limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(rows.map(rowToResource), Number(count.total), page);
}
