import type { Message, Producer } from 'kafkajs';

/**
 * A broker refuses a request whose record batch exceeds its message.max.bytes (1 MiB by default).
 * Three quarters of it leave room for what the estimate below does not count: each record's
 * framing, some 30 bytes, about 40 KB for the smallest events at this size. Larger requests are
 * fewer round trips: replay to Kafka spends most of its time waiting on them.
 */
export const maxRequestBytes = 768 * 1024;

type Bytes = Buffer | string | null | undefined;
const bytesOf = (value: Bytes | Bytes[]): number =>
  Array.isArray(value) ? value.reduce<number>((sum, part) => sum + bytesOf(part), 0) : value == null ? 0 : typeof value === 'string' ? Buffer.byteLength(value) : value.length;

const sizeOf = (message: Message) => {
  let bytes = bytesOf(message.value) + bytesOf(message.key);
  for (const [name, value] of Object.entries(message.headers ?? {})) bytes += Buffer.byteLength(name) + bytesOf(value);
  return bytes;
};

/**
 * `messages` cut, in their order, into requests of at most `maxBytes` each (a larger message goes
 * alone): sent one after the other, each acknowledged before the next, a key's messages keep their order.
 */
export function requestsOf(messages: Message[], maxBytes = maxRequestBytes): Message[][] {
  const requests: Message[][] = [];
  let current: Message[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = sizeOf(message);
    if (current.length > 0 && bytes + size > maxBytes) {
      requests.push(current);
      current = [];
      bytes = 0;
    }
    current.push(message);
    bytes += size;
  }
  if (current.length > 0) requests.push(current);
  return requests;
}

/**
 * Sends `messages` to `topic` in requestsOf's requests, one after the other, each acknowledged by
 * every in-sync replica before the next: the live relay's rounds and replay's pages alike.
 */
export async function sendInRequests(producer: Pick<Producer, 'send'>, topic: string, messages: Message[]): Promise<void> {
  for (const request of requestsOf(messages)) await producer.send({ topic, acks: -1, messages: request });
}
