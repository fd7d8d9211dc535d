import http from 'node:http';
import https from 'node:https';
import { signWebhook } from './sign-webhook.js';

export type WebhookTarget = { endpoint: string; secret: string };

export type WebhookOutcome = { delivered: true } | { delivered: false; statusCode: number | null; error: string };

// Connections to the endpoint are kept open between deliveries (no handshake per event). node:http
// rather than fetch: a POST through fetch costs several times the CPU (streams, signals, a
// Response object), which a sender delivering hundreds of events a second cannot afford.
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

class NoAnswerError extends Error {}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof NoAnswerError) return `no answer within ${timeoutMs} ms`;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && code !== 'ABORT_ERR') return code;
  return error instanceof Error ? error.message : String(error);
}

type Answer = { statusCode: number } | { error: unknown; reusedSocket: boolean };

function post(url: URL, headers: Record<string, string>, body: Buffer, options: { timeoutMs: number; signal?: AbortSignal }): Promise<Answer> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve) => {
    const request = (secure ? https : http).request(url, { method: 'POST', agent: secure ? agents.https : agents.http, headers, signal: options.signal }, (response) => {
      clearTimeout(timer);
      // Read to its end, so that the connection serves the next delivery.
      response.resume();
      resolve({ statusCode: response.statusCode ?? 0 });
    });
    const timer = setTimeout(() => request.destroy(new NoAnswerError()), options.timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      resolve({ error, reusedSocket: request.reusedSocket });
    });
    request.end(body);
  });
}

/**
 * One signed POST of a webhook. Only a 2xx answer counts as delivered; a redirect is not followed
 * (the endpoint is configuration, not something a receiver may move).
 */
export async function postWebhook(
  target: WebhookTarget,
  message: { id: string; body: string; traceparent?: string },
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<WebhookOutcome> {
  const timestamp = Math.floor(Date.now() / 1000);
  const body = Buffer.from(message.body);
  const headers = {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'user-agent': 'workspace-booking-webhooks/1',
    'webhook-id': message.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(target.secret, message.id, timestamp, message.body),
    ...(message.traceparent ? { traceparent: message.traceparent } : {}),
  };
  const url = new URL(target.endpoint);
  let answer = await post(url, headers, body, options);
  // A kept-alive connection the receiver closed meanwhile fails at once: that is no answer, try a fresh one.
  if ('error' in answer && answer.reusedSocket && (answer.error as { code?: unknown }).code === 'ECONNRESET' && !options.signal?.aborted) {
    answer = await post(url, headers, body, options);
  }
  if ('error' in answer) return { delivered: false, statusCode: null, error: describe(answer.error, options.timeoutMs) };
  if (answer.statusCode >= 200 && answer.statusCode < 300) return { delivered: true };
  return { delivered: false, statusCode: answer.statusCode, error: `answered HTTP ${answer.statusCode}` };
}
