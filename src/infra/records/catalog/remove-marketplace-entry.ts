import type { Executor } from '../../db/database.js';

/**
 * Marketplace entries were once records of their own; the marketplace now follows the
 * application's status and answers none of them. An entry left from then would block its
 * application's deletion (foreign key), so it goes with the application.
 */
export async function removeMarketplaceEntry(db: Executor, applicationId: number): Promise<void> {
  await db.deleteFrom('marketplace_entries').where('application_id', '=', applicationId).execute();
}
