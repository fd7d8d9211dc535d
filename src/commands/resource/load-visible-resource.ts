import { canSeeWorkspace, type Principal } from '../../domain/access/principal.js';
import { notFound } from '../../domain/domain-error.js';
import type { Resource } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { findResource } from '../../projections/resource/resource-queries.js';

/** A live resource the caller may see; any other answers 404 and reveals nothing. */
export async function loadVisibleResource(db: Executor, actor: Principal, id: string): Promise<Resource> {
  const resource = await findResource(db, id);
  if (!resource || !canSeeWorkspace(actor, resource.workspace)) throw notFound('resource');
  return resource;
}
