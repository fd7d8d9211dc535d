import { forbidden, invalidRequest } from '../../domain/domain-error.js';
import type { RecordJson } from '../../domain/record/record-kind.js';
import { validateRecordInput } from '../../domain/record/validate-record-input.js';
import { AuthenticationError } from '../../infra/auth/principal-from-claims.js';
import { apiKeyHashOf, findDeviceByApiKeyHash } from '../../projections/record/device-api-keys.js';
import type { CommandContext } from '../command-context.js';
import { writeChange } from '../records/change-record.js';
import { devices } from './device-records.js';

/** A device replaces its own record, authenticated by its API key instead of a user token. */
export async function updateDeviceSelf(ctx: CommandContext, apiKey: string | undefined, body: unknown): Promise<RecordJson> {
  if (!apiKey) throw new AuthenticationError('missing X-Api-Key header');
  const device = await findDeviceByApiKeyHash(ctx.db, apiKeyHashOf(apiKey));
  if (!device) throw new AuthenticationError('unknown API key');
  const input = validateRecordInput(devices.kind, body, 'replace');
  if (input.id !== device.id) throw invalidRequest(`the key belongs to device '${device.id}', not '${String(input.id)}'`, '/body/id');
  if (input.workspace !== device.workspace) throw forbidden('a device cannot move itself to another workspace');
  return writeChange(ctx, devices, device, `device:${device.id}`, input);
}
