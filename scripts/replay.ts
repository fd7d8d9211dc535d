import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { toEventEnvelope, type EventEnvelope } from '../src/domain/booking/event-envelope.js';
import { loadConfig } from '../src/infra/config.js';
import { createDatabase, type Database } from '../src/infra/db/database.js';
import { createKafkaProducer } from '../src/infra/kafka/create-kafka-producer.js';
import { createLogger } from '../src/infra/logger.js';
import { postWebhook } from '../src/infra/webhooks/post-webhook.js';
import { toKafkaMessage } from '../src/workers/kafka/kafka-relay.js';

/**
 * npm run replay -- --after <position> --to webhook|kafka|stdout
 *
 * Sends the published events after a global log position again, with their original ids (consumers
 * de-duplicate on them), in log order: a resource's events keep their order on every target. The
 * range ends at the head of the log when the replay starts. Progress goes to stderr, so that stdout
 * holds only envelopes.
 */
type Target = 'webhook' | 'kafka' | 'stdout';
type Send = (envelopes: EventEnvelope[]) => Promise<void>;

function fail(message: string): never {
  process.stderr.write(`replay: ${message}\n`);
  process.exit(2);
}

function parseOptions(): { after: number; to: Target } {
  let values: { after?: string; to?: string };
  try {
    ({ values } = parseArgs({ options: { after: { type: 'string' }, to: { type: 'string' } } }));
  } catch (error) {
    fail(`${(error as Error).message}; usage: npm run replay -- --after <position> --to webhook|kafka|stdout`);
  }
  if (values.after === undefined || !/^\d+$/.test(values.after) || !Number.isSafeInteger(Number(values.after))) {
    fail('--after <position> is required: a global log position (0 replays the whole log)');
  }
  if (values.to !== 'webhook' && values.to !== 'kafka' && values.to !== 'stdout') fail('--to must be webhook, kafka or stdout');
  return { after: Number(values.after), to: values.to };
}

const attemptsPerWebhook = 5;

async function openTarget(to: Target): Promise<{ send: Send; close(): Promise<void> }> {
  const env = process.env;
  if (to === 'stdout') {
    return { send: async (envelopes) => void process.stdout.write(envelopes.map((e) => `${JSON.stringify(e)}\n`).join('')), close: async () => undefined };
  }
  if (to === 'webhook') {
    if (!env.WEBHOOK_ENDPOINT || !env.WEBHOOK_SECRET) fail('--to webhook needs WEBHOOK_ENDPOINT and WEBHOOK_SECRET');
    const target = { endpoint: env.WEBHOOK_ENDPOINT, secret: env.WEBHOOK_SECRET };
    // One at a time, so that each resource's events arrive in order; a failing endpoint stops the replay.
    const send: Send = async (envelopes) => {
      for (const envelope of envelopes) {
        for (let attempt = 1; ; attempt++) {
          const outcome = await postWebhook(target, { id: envelope.id, body: JSON.stringify(envelope) }, { timeoutMs: 10_000 });
          if (outcome.delivered) break;
          if (attempt === attemptsPerWebhook) throw new Error(`the endpoint refused event ${envelope.id} at position ${envelope.position}: ${outcome.error}`);
          await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
        }
      }
    };
    return { send, close: async () => undefined };
  }
  const brokers = (env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
  if (brokers.length === 0) fail('--to kafka needs KAFKA_BROKERS');
  const topic = env.KAFKA_TOPIC || 'booking.events';
  const producer = createKafkaProducer(brokers, createLogger('warn'));
  await producer.connect();
  return {
    // The idempotent producer keeps the order of the messages of one key within a send.
    send: async (envelopes) => void (await producer.send({ topic, acks: -1, messages: envelopes.map(toKafkaMessage) })),
    close: () => producer.disconnect(),
  };
}

async function headPosition(db: Database): Promise<number> {
  const row = await db.selectFrom('events').select((eb) => eb.fn.max('global_position').as('head')).executeTakeFirst();
  return Number(row?.head ?? 0);
}

async function replay(db: Database, after: number, head: number, send: Send, progress: cliProgress.SingleBar): Promise<number> {
  let from = after;
  let sent = 0;
  while (from < head) {
    const rows = await db
      .selectFrom('events')
      .select(['event_id', 'global_position', 'event_type', 'data'])
      .where('global_position', '>', from)
      .where('global_position', '<=', head)
      .orderBy('global_position')
      .limit(500)
      .execute();
    if (rows.length === 0) break;
    const envelopes = rows.flatMap((row) => {
      const envelope = toEventEnvelope({ id: row.event_id, globalPosition: Number(row.global_position), type: row.event_type, data: row.data });
      return envelope ? [envelope] : [];
    });
    await send(envelopes);
    sent += envelopes.length;
    from = Number(rows.at(-1)!.global_position);
    progress.update(from - after, { sent });
  }
  return sent;
}

const { after, to } = parseOptions();
const config = loadConfig();
const db = createDatabase(config.database);
try {
  const head = await headPosition(db);
  if (after >= head) {
    process.stderr.write(`replay: nothing to replay: position ${after} is at or beyond the head of the log (${head})\n`);
  } else {
    const target = await openTarget(to);
    const progress = new cliProgress.SingleBar(
      { stream: process.stderr, format: 'replay [{bar}] {percentage}% | positions {value}/{total} | {sent} events sent', noTTYOutput: true, notTTYSchedule: 2000 },
      cliProgress.Presets.shades_classic,
    );
    progress.start(head - after, 0, { sent: 0 });
    try {
      const sent = await replay(db, after, head, target.send, progress);
      progress.stop();
      process.stderr.write(`replay: sent ${sent} events of positions ${after + 1}..${head} to ${to}\n`);
    } finally {
      progress.stop();
      await target.close();
    }
  }
} catch (error) {
  process.stderr.write(`replay: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await db.destroy();
}

