import { randomBytes } from 'node:crypto';
import type { Principal } from '../../domain/access/principal.js';
import { forbidden, notFound } from '../../domain/domain-error.js';
import type { RecordScope } from '../../domain/record/record-access.js';
import { recordKeyOf } from '../../domain/record/record-kind.js';
import { apiKeyHashOf, storeDeviceApiKeyHash } from '../../projections/record/device-api-keys.js';
import type { CommandContext } from '../command-context.js';
import { devices } from './device-records.js';
import { locateRecord } from '../records/locate-record.js';

/** A new key for the device (replacing any earlier one); only its hash is kept, the key is answered once. */
export async function issueDeviceApiKey(ctx: CommandContext, actor: Principal, scope: RecordScope, id: string): Promise<{ apiKey: string }> {
  const device = await locateRecord(ctx.db, devices.kind, scope, id);
  if (!devices.access.write(actor)) throw forbidden(`LV${actor.level} may not issue device keys`);
  const apiKey = randomBytes(32).toString('base64url');
  const stored = await storeDeviceApiKeyHash(ctx.db, recordKeyOf(devices.kind, device), apiKeyHashOf(apiKey));
  if (!stored) throw notFound(devices.kind.label);
  return { apiKey };
}
