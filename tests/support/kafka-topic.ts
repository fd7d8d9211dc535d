import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { waitFor } from '../workers/worker-test-kit.js';

/** A message as an analyst's consumer reads it: the key, the headers as text, the value parsed. */
export type ReceivedMessage = {
  key: string;
  headers: Record<string, string>;
  value: { id: string; event: string; position: number; workspace: string; data: Record<string, unknown> };
};

/** A new topic of three partitions, named after `prefix`; answers its name once its leaders are elected. */
export async function createTopic(kafka: Kafka, prefix: string): Promise<string> {
  const topic = `${prefix}-${randomUUID()}`;
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
  return topic;
}

/** Everything on the topic from the beginning, read by a consumer group of its own once `count` messages arrived. */
export async function consumeTopic(kafka: Kafka, topic: string, count: number, timeoutMs = 60_000): Promise<ReceivedMessage[]> {
  const consumer = kafka.consumer({ groupId: `analyst-${randomUUID()}` });
  const received: ReceivedMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]));
        received.push({ key: String(message.key), headers, value: JSON.parse(String(message.value)) });
      },
    });
    await waitFor(() => received.length >= count, { timeoutMs, what: `${count} messages on ${topic}` });
  } finally {
    await consumer.disconnect();
  }
  return received;
}
