import { sql } from 'kysely';
import { pageOf, type Page, type PageOf } from '../../domain/page.js';
import type { EventEnvelope } from '../../domain/event-envelope.js';
import type { Database, Executor } from '../db/database.js';
import type { WebhookDeliveryRow } from '../db/tables/webhook-deliveries.table.js';

/**
 * The webhook deliveries that failed after every retry, as the API lists and requeues them: rows of
 * the sender's queue (workers/webhook/webhook-delivery-queue.ts), written without an event.
 */

/** A delivery that failed after every retry. */
export type DeadLetter = {
  id: string;
  eventId: string;
  event: string;
  workspace: string;
  resourceId: string;
  attempts: number;
  lastError: string | null;
  lastStatusCode: number | null;
  deadLetteredAt: string;
  payload: EventEnvelope;
};

function toDeadLetter(row: WebhookDeliveryRow): DeadLetter {
  return {
    id: row.id,
    eventId: row.event_id,
    event: row.event,
    workspace: row.workspace,
    resourceId: row.resource_id,
    attempts: row.attempts,
    lastError: row.last_error,
    lastStatusCode: row.last_status_code,
    deadLetteredAt: (row.dead_lettered_at ?? row.created_at).toISOString(),
    payload: row.payload,
  };
}

/** Newest first; `workspace` undefined lists every workspace. */
export async function listDeadLetters(db: Executor, workspace: string | undefined, page: Page): Promise<PageOf<DeadLetter>> {
  const base = db
    .selectFrom('webhook_deliveries')
    .where('status', '=', 'dead')
    .$if(workspace !== undefined, (q) => q.where('workspace', '=', workspace!));
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('dead_lettered_at', 'desc')
      .orderBy('id')
      .limit(page.limit)
      .offset((page.page - 1) * page.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(rows.map(toDeadLetter), Number(count.total), page);
}

/**
 * Queues a dead letter again, behind whatever its resource has queued since, with a fresh retry
 * schedule; answers it as it was, or null when there is no such dead letter (in `workspace`).
 */
export async function redeliverDeadLetter(db: Database, id: string, workspace: string | undefined): Promise<DeadLetter | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .where('status', '=', 'dead')
      .$if(workspace !== undefined, (q) => q.where('workspace', '=', workspace!))
      .forUpdate()
      .executeTakeFirst();
    if (!row) return null;
    await trx
      .updateTable('webhook_deliveries')
      .set({
        status: 'pending',
        attempts: 0,
        next_attempt_at: new Date(),
        claimed_until: null,
        claim_id: null,
        dead_lettered_at: null,
        queue_order: sql`nextval('webhook_delivery_order')`,
      })
      .where('id', '=', id)
      .execute();
    return toDeadLetter(row);
  });
}
