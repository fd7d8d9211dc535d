import type { Principal } from '../../domain/access/principal.js';
import { DomainError, forbidden, invalidRequest, recordConflict } from '../../domain/domain-error.js';
import { checkWorkspaceOfNewRecord } from '../../domain/record/record-access.js';
import { recordKeyOf, type RecordJson, type RecordKey } from '../../domain/record/record-kind.js';
import { validateRecordInput } from '../../domain/record/validate-record-input.js';
import { nextRecordId } from '../../projections/record/record-rows.js';
import { selectExistingKeys } from '../../projections/record/select-records.js';
import type { CommandContext } from '../command-context.js';
import type { RecordKindConfig } from './record-kind-config.js';
import { writeRecord } from './write-record.js';

const keyText = (key: RecordKey) => `${key.workspace ?? ''}\u0000${key.id}`;

/**
 * Creates one record or a bulk, all or nothing: every record is checked before the first is
 * written. Each record is its own event stream, so the writes are separate appends; should one
 * still fail (a concurrent create of the same id, an outage), the records already created are
 * deleted again. Answers the records in the order given.
 */
export async function createRecords(
  ctx: CommandContext,
  config: RecordKindConfig,
  actor: Principal,
  requestedWorkspace: string | undefined,
  bodies: unknown[],
  bulk: boolean,
): Promise<RecordJson[]> {
  const { kind } = config;
  if (!config.access.write(actor)) throw forbidden(`LV${actor.level} may not create ${kind.label} records`);
  const records = bodies.map((body, i) => {
    const record = atIndex(bulk, i, () => validateRecordInput(kind, body, 'create'));
    if (kind.workspaceField) checkWorkspaceOfNewRecord(actor, requestedWorkspace, record[kind.workspaceField] as string);
    if (kind.reservedIds?.includes(record[kind.id.field] as string)) {
      throw invalidRequest(`'${String(record[kind.id.field])}' is reserved and cannot be a ${kind.name} id`, bulk ? `/body/bulk/${i}/id` : '/body/id');
    }
    return record;
  });
  if (kind.id.sequence) {
    for (const record of records) record[kind.id.field] = await nextRecordId(ctx.db, kind.id.sequence);
  } else {
    const keys = records.map((record) => recordKeyOf(kind, record));
    const twice = keys.find((key, i) => keys.findIndex((other) => keyText(other) === keyText(key)) !== i);
    if (twice) throw invalidRequest(`${kind.label} '${twice.id}' appears twice in the bulk`, '/body/bulk');
    const [existing] = await selectExistingKeys(ctx.db, kind, keys);
    if (existing) throw recordConflict(`${kind.label} '${existing.id}' already exists`);
  }
  const ordered = config.rules.prepareCreate ? await config.rules.prepareCreate(ctx.db, records) : records;
  const created: RecordJson[] = [];
  try {
    for (const record of ordered) {
      const key = recordKeyOf(kind, record);
      const written = await writeRecord(ctx, config, key, actor.sub, (current) => {
        if (current) throw recordConflict(`${kind.label} '${key.id}' already exists`);
        return { change: 'created', record };
      });
      created.push(written!);
    }
  } catch (error) {
    await undoCreates(ctx, config, created.reverse(), actor.sub);
    throw error;
  }
  const byKey = new Map(created.map((record) => [keyText(recordKeyOf(kind, record)), record]));
  return records.map((record) => byKey.get(keyText(recordKeyOf(kind, record)))!);
}

async function undoCreates(ctx: CommandContext, config: RecordKindConfig, records: RecordJson[], by: string): Promise<void> {
  for (const record of records) {
    const key = recordKeyOf(config.kind, record);
    try {
      await writeRecord(ctx, config, key, by, (current) => (current ? { change: 'deleted', record: current } : null));
    } catch (error) {
      ctx.logger.error({ err: error, kind: config.kind.name, key }, 'could not undo a record of a failed bulk create');
    }
  }
}

/** Field errors of a bulk item carry the item's index in their path. */
function atIndex<T>(bulk: boolean, index: number, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!bulk || !(error instanceof DomainError)) throw error;
    const errors = error.details.errors?.map((e) => ({ ...e, path: e.path.replace(/^\/body/, `/body/bulk/${index}`) }));
    throw new DomainError(error.code, `bulk[${index}]: ${error.message}`, { ...error.details, errors });
  }
}
