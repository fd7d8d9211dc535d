import { sql } from 'kysely';
import type { PublishingProject } from '../../../domain/publishing/decide-publish.js';
import type { Executor } from '../../../infra/db/database.js';

export type PublisherRow = { id: number; email: string; verified: boolean };

export async function findPublisherById(db: Executor, id: number): Promise<PublisherRow | null> {
  return (await db.selectFrom('publishers').select(['id', 'email', 'verified']).where('id', '=', id).executeTakeFirst()) ?? null;
}

/** E-mail addresses are matched without regard to case: providers and administrators spell them differently. */
export async function findPublisherByEmail(db: Executor, email: string): Promise<PublisherRow | null> {
  const row = await db
    .selectFrom('publishers')
    .select(['id', 'email', 'verified'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .orderBy('id')
    .executeTakeFirst();
  return row ?? null;
}

/** Links a publisher to the identity it signed in with, unless that identity is linked to a publisher already. */
export async function linkPublisherIdentity(db: Executor, id: number, provider: string, subject: string): Promise<void> {
  await db
    .updateTable('publishers')
    .set({ oauth_provider: provider, oauth_subject: subject })
    .where('id', '=', id)
    .where('oauth_provider', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('publishers as other').select('other.id').where('other.oauth_provider', '=', provider).where('other.oauth_subject', '=', subject))),
    )
    .execute();
}

export async function findProjectForApp(db: Executor, name: string, version: string): Promise<PublishingProject | null> {
  const row = await db
    .selectFrom('projects')
    .select(['id', 'publisher_id'])
    .where('app_name', '=', name)
    .where('app_version', '=', version)
    .executeTakeFirst();
  return row ? { id: row.id, publisherId: row.publisher_id } : null;
}

export async function isAppSubmitted(db: Executor, name: string, version: string): Promise<boolean> {
  const row = await db.selectFrom('applications').select('id').where('name', '=', name).where('version', '=', version).executeTakeFirst();
  return row !== undefined;
}

/** The package's bytes, kept beside the record: never selected by the record interface. */
export async function storeApplicationPackage(db: Executor, id: number, bytes: Buffer): Promise<void> {
  await db.updateTable('applications').set({ package: bytes }).where('id', '=', id).executeTakeFirstOrThrow();
}
