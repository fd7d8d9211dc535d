import type { Message, Producer } from 'kafkajs';
import { envelopeKey, toEventEnvelope, type EventEnvelope } from '../../domain/event-envelope.js';
import type { RecordedEvent } from '../../infra/event-store/event-store.js';
import { sendInRequests } from '../../infra/kafka/requests-of.js';
import { startDeliverySpan, type DeliverySpan } from '../../infra/telemetry/delivery-span.js';
import { traceparentOf } from '../../infra/telemetry/trace-context.js';
import type { Processor } from '../processor.js';

/** The part of a kafkajs producer the relay uses. */
export type KafkaSender = Pick<Producer, 'connect' | 'send' | 'disconnect'>;

/** CloudEvents binary mode: the attributes travel as headers, the value is the envelope. */
export function toKafkaMessage(envelope: EventEnvelope): Message {
  return {
    key: envelopeKey(envelope),
    value: JSON.stringify(envelope),
    headers: {
      ce_specversion: '1.0',
      ce_id: envelope.id,
      ce_type: envelope.event,
      ce_source: '/booking/v1',
      ce_time: envelope.timestamp,
      'content-type': 'application/json',
    },
  };
}

/**
 * Publishes every published event (contract §8, §14) to `topic`, keyed by the zone or device id so that a resource's events stay
 * in one partition in log order. A round's events go in as few requests as the broker's size
 * bound allows (sendInRequests), one round trip each, so the relay keeps up with the log. The checkpoint moves only after the
 * broker acknowledged (all in-sync replicas); a failed send fails the round, which is retried with
 * backoff from its first event: messages a partition had acknowledged are sent again (at least
 * once, §8: consumers de-duplicate on the id). Enabled on a database with history, it starts at
 * the end of the log: history is published only on request.
 */
/** Where the Kafka relay stands in the log, and where it begins the first time (history is sent only on request). */
export const kafkaRelayCheckpoint = { name: 'kafka-relay', firstPosition: 'log-end' } as const;

export function kafkaRelay(producer: KafkaSender, topic: string): Processor {
  let connected = false;
  const publish = async (events: RecordedEvent[]) => {
    const spans: DeliverySpan[] = [];
    const messages = events.flatMap((event) => {
      const envelope = toEventEnvelope(event);
      if (!envelope) return [];
      const message = toKafkaMessage(envelope);
      // The record carries the trace of the request that wrote its event (contract §18).
      const span = startDeliverySpan(`${topic} publish`, traceparentOf(event.metadata), 'producer', {
        'messaging.system': 'kafka',
        'messaging.destination.name': topic,
        'messaging.message.id': envelope.id,
      });
      if (span?.header) {
        message.headers = { ...message.headers, traceparent: span.header };
        spans.push(span);
      }
      return [message];
    });
    if (messages.length === 0) return;
    try {
      await send(messages);
      spans.forEach((span) => span.end());
    } catch (error) {
      spans.forEach((span) => span.end(error instanceof Error ? error.message : String(error)));
      throw error;
    }
  };
  const send = async (messages: Message[]) => {
    if (!connected) {
      await producer.connect();
      connected = true;
    }
    try {
      await sendInRequests(producer, topic, messages);
    } catch (error) {
      connected = false;
      throw error;
    }
  };
  return {
    ...kafkaRelayCheckpoint,
    mode: 'at-least-once',
    handle: (event) => publish([event]),
    handleBatch: publish,
  };
}
