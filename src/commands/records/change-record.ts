import { isDeepStrictEqual } from 'node:util';
import { isSystemAdmin, type Principal } from '../../domain/access/principal.js';
import { forbidden, invalidRequest, notFound } from '../../domain/domain-error.js';
import type { RecordScope } from '../../domain/record/record-access.js';
import { recordKeyOf, type RecordJson, type RecordKey } from '../../domain/record/record-kind.js';
import { validateRecordInput } from '../../domain/record/validate-record-input.js';
import type { CommandContext } from '../command-context.js';
import { locateRecord } from './locate-record.js';
import type { RecordKindConfig } from './record-kind-config.js';
import { writeRecord } from './write-record.js';

/** PATCH (update: any part) or PUT (replace: the whole record) of a record the caller can see. */
export async function changeRecord(
  ctx: CommandContext,
  config: RecordKindConfig,
  actor: Principal,
  scope: RecordScope,
  id: string | number,
  body: unknown,
  mode: 'update' | 'replace',
): Promise<RecordJson> {
  const { kind } = config;
  const input = validateRecordInput(kind, body, mode);
  const current = await locateRecord(ctx.db, kind, scope, id);
  if (!config.access.write(actor)) throw forbidden(`LV${actor.level} may not change ${kind.label} records`);
  const idField = kind.id.field;
  if (Object.hasOwn(input, idField) && input[idField] !== current[idField]) {
    throw invalidRequest(`the id of a ${kind.name} cannot change (the path names '${String(current[idField])}')`, `/body/${idField}`);
  }
  const workspaceField = kind.workspaceField;
  if (workspaceField && Object.hasOwn(input, workspaceField) && input[workspaceField] !== current[workspaceField]) {
    if (!isSystemAdmin(actor)) throw forbidden('records cannot be moved to another workspace');
    throw invalidRequest(`the workspace of a ${kind.name} cannot be changed here`, `/body/${workspaceField}`);
  }
  return writeChange(ctx, config, recordKeyOf(kind, current), actor.sub, input);
}

/** Writes the fields of `input` over the record at `key`; no event when nothing changes. */
export async function writeChange(ctx: CommandContext, config: RecordKindConfig, key: RecordKey, by: string, input: RecordJson): Promise<RecordJson> {
  const record = await writeRecord(ctx, config, key, by, (current) => {
    if (!current) throw notFound(config.kind.label);
    const next = { ...current, ...input };
    return isDeepStrictEqual(current, next) ? null : { change: 'updated', record: next };
  });
  await config.rules.afterChange?.(ctx, key, record!, by);
  return record!;
}
