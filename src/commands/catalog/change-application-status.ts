import type { Principal } from '../../domain/access/principal.js';
import type { ApplicationStatus } from '../../domain/catalog/application-status.js';
import { applicationStatusChanged } from '../../domain/catalog/catalog-record-events.js';
import { decideApplicationStatus } from '../../domain/catalog/decide-application-status.js';
import { notFound } from '../../domain/domain-error.js';
import type { RecordJson } from '../../domain/record/record-kind.js';
import type { CommandContext } from '../command-context.js';
import { writeRecord } from '../records/write-record.js';
import { applications } from './catalog-records.js';

/** A reviewer's move of an application to another status: ApplicationStatusChanged on the application's stream. */
export async function changeApplicationStatus(ctx: CommandContext, actor: Principal, id: number, to: ApplicationStatus): Promise<RecordJson> {
  const record = await writeRecord(ctx, applications, { workspace: null, id }, actor.sub, (current) => {
    if (!current) throw notFound(applications.kind.label);
    const move = decideApplicationStatus({ to, actor, at: ctx.now().toString() }, current.status as ApplicationStatus);
    return { change: 'updated', record: { ...current, status: move.to }, event: { type: applicationStatusChanged, data: move } };
  });
  return record!;
}
