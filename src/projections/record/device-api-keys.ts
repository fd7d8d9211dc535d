import { createHash } from 'node:crypto';
import type { RecordKey } from '../../domain/record/record-kind.js';
import type { Executor } from '../../infra/db/database.js';

/** Only this hash of a device's key is stored; the key itself is shown once, when issued. */
export const apiKeyHashOf = (apiKey: string) => createHash('sha256').update(apiKey, 'utf8').digest('hex');

/** Replaces the device's key hash; false when the device is gone. */
export async function storeDeviceApiKeyHash(db: Executor, device: RecordKey, hash: string): Promise<boolean> {
  const result = await db
    .updateTable('devices')
    .set({ api_key_hash: hash })
    .where('workspace', '=', device.workspace as string)
    .where('id', '=', String(device.id))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findDeviceByApiKeyHash(db: Executor, hash: string): Promise<RecordKey | null> {
  const row = await db.selectFrom('devices').select(['workspace', 'id']).where('api_key_hash', '=', hash).executeTakeFirst();
  return row ? { workspace: row.workspace, id: row.id } : null;
}

/** Hands a moving device's key over to its copy in the new workspace (the hash is unique). */
export async function moveDeviceApiKey(db: Executor, from: RecordKey, to: RecordKey): Promise<void> {
  const row = await db
    .selectFrom('devices')
    .select('api_key_hash')
    .where('workspace', '=', from.workspace as string)
    .where('id', '=', String(from.id))
    .executeTakeFirst();
  if (!row?.api_key_hash) return;
  await db.updateTable('devices').set({ api_key_hash: null }).where('workspace', '=', from.workspace as string).where('id', '=', String(from.id)).execute();
  await db.updateTable('devices').set({ api_key_hash: row.api_key_hash }).where('workspace', '=', to.workspace as string).where('id', '=', String(to.id)).execute();
}
