import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { EventEnvelope } from '../../domain/event-envelope.js';
import { postWebhook } from '../../infra/webhook/post-webhook.js';
import { ReplayUsageError } from './replay-usage-error.js';

export type ReplayTargetName = 'webhook' | 'kafka' | 'stdout';

/** Sends envelopes in their order; resolves once the target has them all. */
export type SendEnvelopes = (envelopes: EventEnvelope[]) => Promise<void>;

export type ReplayTarget = { send: SendEnvelopes; close(): Promise<void> };

const attemptsPerWebhook = 5;

/** One envelope a line; a page waits until a slow reader has taken the previous one, so memory stays bounded. */
function linesTo(stdout: Writable): ReplayTarget {
  return {
    send: async (envelopes) => {
      if (!stdout.write(envelopes.map((e) => `${JSON.stringify(e)}\n`).join(''))) await once(stdout, 'drain');
    },
    close: async () => undefined,
  };
}

function webhookOf(env: NodeJS.ProcessEnv): ReplayTarget {
  if (!env.WEBHOOK_ENDPOINT || !env.WEBHOOK_SECRET) throw new ReplayUsageError('--to webhook needs WEBHOOK_ENDPOINT and WEBHOOK_SECRET');
  const target = { endpoint: env.WEBHOOK_ENDPOINT, secret: env.WEBHOOK_SECRET };
  // One at a time, so that each resource's events arrive in order; a failing endpoint stops the replay.
  const send: SendEnvelopes = async (envelopes) => {
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

async function kafkaOf(env: NodeJS.ProcessEnv): Promise<ReplayTarget> {
  const brokers = (env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
  if (brokers.length === 0) throw new ReplayUsageError('--to kafka needs KAFKA_BROKERS');
  const topic = env.KAFKA_TOPIC || 'booking.events';
  // Loaded only here: kafkajs and the logger cost every other replay start-up time for nothing.
  const [{ createKafkaProducer }, { sendInRequests }, { createLogger }, { toKafkaMessage }] = await Promise.all([
    import('../../infra/kafka/create-kafka-producer.js'),
    import('../../infra/kafka/requests-of.js'),
    import('../../infra/logger.js'),
    import('../kafka/kafka-relay.js'),
  ]);
  const producer = createKafkaProducer(brokers, createLogger('warn'));
  await producer.connect();
  return {
    // The idempotent producer keeps the order of the messages of one key within a request, and
    // the requests go one after the other.
    send: (envelopes) => sendInRequests(producer, topic, envelopes.map(toKafkaMessage)),
    close: () => producer.disconnect(),
  };
}

/** The target a replay sends to, configured from `env`; stdout writes to `stdout`. */
export async function openReplayTarget(to: ReplayTargetName, env: NodeJS.ProcessEnv, stdout: Writable): Promise<ReplayTarget> {
  if (to === 'stdout') return linesTo(stdout);
  if (to === 'webhook') return webhookOf(env);
  return kafkaOf(env);
}
