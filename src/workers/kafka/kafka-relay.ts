import type { Message, Producer } from 'kafkajs';
import { envelopeKey, toEventEnvelope, type EventEnvelope } from '../../domain/booking/event-envelope.js';
import type { RecordedEvent } from '../../infra/event-store/event-store.js';
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
 * in one partition in log order. A round's events go in one request (one round trip to the broker
 * whatever their number, so the relay keeps up with the log). The checkpoint moves only after the
 * broker acknowledged (all in-sync replicas); a failed send fails the round, which is retried with
 * backoff from its first event: messages a partition had acknowledged are sent again (at least
 * once, §8: consumers de-duplicate on the id). Enabled on a database with history, it starts at
 * the end of the log: history is published only on request.
 */
export function kafkaRelay(producer: KafkaSender, topic: string): Processor {
  let connected = false;
  const publish = async (events: RecordedEvent[]) => {
    const messages = events.flatMap((event) => {
      const envelope = toEventEnvelope(event);
      return envelope ? [toKafkaMessage(envelope)] : [];
    });
    if (messages.length === 0) return;
    if (!connected) {
      await producer.connect();
      connected = true;
    }
    try {
      await producer.send({ topic, acks: -1, messages });
    } catch (error) {
      connected = false;
      throw error;
    }
  };
  return {
    name: 'kafka-relay',
    mode: 'at-least-once',
    firstPosition: 'log-end',
    handle: (event) => publish([event]),
    handleBatch: publish,
  };
}
