import type { PublisherPrincipal } from '../../domain/publishing/publisher-principal.js';
import { ownWorkCondition } from '../../domain/publishing/own-work.js';
import type { RecordKind } from '../../domain/record/record-kind.js';
import type { RecordPage } from '../../domain/record/record-page.js';
import type { ListQuery } from '../../domain/record/record-query.js';
import { AuthenticationError } from '../../infra/auth/principal-from-claims.js';
import type { Executor } from '../../infra/db/database.js';
import { findPublisherById } from '../../projections/record/catalog/publishing-queries.js';
import { selectRecordPage } from '../../projections/record/select-records.js';

/** One page of the caller's own records of a kind; verified or not, a publisher reads its own work. */
export async function listOwnWork(db: Executor, principal: PublisherPrincipal, kind: RecordKind, query: ListQuery): Promise<RecordPage> {
  const publisher = await findPublisherById(db, principal.publisherId);
  if (!publisher) throw new AuthenticationError('the publisher of this token no longer exists');
  return selectRecordPage(db, kind, { workspace: null, visibleWhen: ownWorkCondition(publisher.id) }, query);
}
