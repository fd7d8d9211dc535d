import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { EventEnvelope } from '../../../src/domain/event-envelope.js';
import { checkPublishedEvent } from '../../support/published-event-schemas.js';

/** `at`: when the request had arrived whole (Date.now()). */
export type Attempt = { envelope: EventEnvelope; headers: Record<string, string>; status: number; at: number };

export type WebhookReceiver = {
  url: string;
  /** Envelopes answered with 2xx, in arrival order. */
  received: EventEnvelope[];
  /** Every verified request and the status it got. */
  attempts: Attempt[];
  /** Requests whose signature did not verify. */
  rejected: number;
  /** Chooses the answer to each verified delivery (default 204); a promise answers late. */
  answer: (envelope: EventEnvelope, attempt: number) => number | Promise<number>;
  /** Stops listening (the endpoint is down) until reopen(). */
  close(): Promise<void>;
  reopen(): Promise<void>;
};

/** A webhook endpoint that verifies every request with the standardwebhooks library, and every body against the AsyncAPI schemas. */
/** `host`: the address it listens on (loopback by default; 0.0.0.0 to serve test hosts in network namespaces too). */
export async function startWebhookReceiver(secret: string, options: { format?: 'raw'; host?: string } = {}): Promise<WebhookReceiver> {
  const verifier = new Webhook(secret, options.format ? { format: options.format } : {});
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    attempts: [],
    rejected: 0,
    answer: () => 204,
    close: async () => undefined,
    reopen: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let envelope: EventEnvelope;
      try {
        envelope = verifier.verify(body, headers) as EventEnvelope;
      } catch {
        receiver.rejected += 1;
        res.writeHead(400).end();
        return;
      }
      checkPublishedEvent(envelope);
      const attempt = receiver.attempts.filter((a) => a.envelope.id === envelope.id).length + 1;
      void Promise.resolve(receiver.answer(envelope, attempt)).then((status) => {
        receiver.attempts.push({ envelope, headers, status, at });
        if (res.destroyed) return;
        if (status >= 200 && status < 300) receiver.received.push(envelope);
        res.writeHead(status, status >= 300 && status < 400 ? { location: `${receiver.url}/moved` } : {}).end();
      });
    });
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, options.host ?? '127.0.0.1', resolve));
  await listen(0);
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  receiver.reopen = () => listen(port);
  return receiver;
}
