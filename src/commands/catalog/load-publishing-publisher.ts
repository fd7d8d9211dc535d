import type { PublishingPublisher } from '../../domain/publishing/decide-publish.js';
import type { PublisherPrincipal } from '../../domain/publishing/publisher-principal.js';
import { checkPublisherVerified } from '../../domain/publishing/publisher-not-verified.js';
import { AuthenticationError } from '../../infra/auth/principal-from-claims.js';
import type { Executor } from '../../infra/db/database.js';
import { findPublisherById } from '../../projections/record/catalog/publishing-queries.js';

/** The caller's publisher, checked before the upload is read: an unverified one is refused without reading a byte. */
export async function loadPublishingPublisher(db: Executor, principal: PublisherPrincipal): Promise<PublishingPublisher> {
  const publisher = await findPublisherById(db, principal.publisherId);
  if (!publisher) throw new AuthenticationError('the publisher of this token no longer exists');
  checkPublisherVerified(publisher);
  return publisher;
}
