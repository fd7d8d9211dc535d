import { DomainError } from '../../domain/domain-error.js';
import type { OAuthProviderName, ProviderIdentity } from '../../infra/oauth/oauth-provider.js';
import { publisherTokenLifetimeSeconds, type PublisherTokens } from '../../infra/publishing/publisher-tokens.js';
import { findPublisherByEmail, linkPublisherIdentity, type PublisherRow } from '../../projections/record/catalog/publishing-queries.js';
import { nextRecordId } from '../../projections/record/record-rows.js';
import { publishers } from './catalog-records.js';
import type { CommandContext } from '../command-context.js';
import { writeRecord } from '../records/write-record.js';

/** The answer of a sign-in callback (contract §11). */
export type PublisherSignIn = { accessToken: string; tokenType: 'Bearer'; expiresIn: number };

/** A new publisher (PublisherCreated) starts unverified; an LV1 administrator verifies it on the publisher record. */
async function createPublisher(ctx: CommandContext, provider: OAuthProviderName, identity: ProviderIdentity): Promise<PublisherRow> {
  const id = await nextRecordId(ctx.db, publishers.kind.id.sequence!);
  const email = identity.email.toLowerCase();
  await writeRecord(
    ctx,
    publishers,
    { workspace: null, id },
    `publisher:${id}`,
    () => ({ change: 'created', record: { id, email, name: identity.name, verified: false } }),
    { alsoWrite: (trx) => linkPublisherIdentity(trx, id, provider, identity.subject) },
  );
  return { id, email, verified: false };
}

/** Finds the publisher by e-mail or creates it, and issues its token. */
export async function signInPublisher(ctx: CommandContext, tokens: PublisherTokens, provider: OAuthProviderName, identity: ProviderIdentity): Promise<PublisherSignIn> {
  let publisher = await findPublisherByEmail(ctx.db, identity.email);
  if (publisher) {
    await linkPublisherIdentity(ctx.db, publisher.id, provider, identity.subject);
  } else {
    try {
      publisher = await createPublisher(ctx, provider, identity);
    } catch (error) {
      // Two first sign-ins at once: the other one created the publisher.
      publisher = error instanceof DomainError && error.code === 'record_conflict' ? await findPublisherByEmail(ctx.db, identity.email) : null;
      if (!publisher) throw error;
    }
  }
  return { accessToken: tokens.sign(publisher), tokenType: 'Bearer', expiresIn: publisherTokenLifetimeSeconds };
}
