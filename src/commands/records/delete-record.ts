import type { Principal } from '../../domain/access/principal.js';
import { forbidden, notFound } from '../../domain/domain-error.js';
import type { RecordScope } from '../../domain/record/record-access.js';
import { recordKeyOf, type RecordJson } from '../../domain/record/record-kind.js';
import type { CommandContext } from '../command-context.js';
import { locateRecord } from './locate-record.js';
import type { RecordKindConfig } from './record-kind-config.js';
import { writeRecord } from './write-record.js';

/** Deletes a record the caller can see; answers it as it was. */
export async function deleteRecord(
  ctx: CommandContext,
  config: RecordKindConfig,
  actor: Principal,
  scope: RecordScope,
  id: string | number,
): Promise<RecordJson> {
  const { kind } = config;
  const located = await locateRecord(ctx.db, kind, scope, id);
  if (!config.access.write(actor)) throw forbidden(`LV${actor.level} may not delete ${kind.label} records`);
  const deleted = await writeRecord(ctx, config, recordKeyOf(kind, located), actor.sub, (current) => {
    if (!current) throw notFound(kind.label);
    return { change: 'deleted', record: current };
  });
  return deleted!;
}
