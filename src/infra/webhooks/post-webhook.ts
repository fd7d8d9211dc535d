import { signWebhook } from './sign-webhook.js';

export type WebhookTarget = { endpoint: string; secret: string };

export type WebhookOutcome = { delivered: true } | { delivered: false; statusCode: number | null; error: string };

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * One signed POST of a webhook. Only a 2xx answer counts as delivered; a redirect is not followed
 * (the endpoint is configuration, not something a receiver may move).
 */
export async function postWebhook(
  target: WebhookTarget,
  message: { id: string; body: string },
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<WebhookOutcome> {
  const timestamp = Math.floor(Date.now() / 1000);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await fetch(target.endpoint, {
      method: 'POST',
      redirect: 'manual',
      signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'workspace-booking-webhooks/1',
        'webhook-id': message.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(target.secret, message.id, timestamp, message.body),
      },
      body: message.body,
    });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { delivered: true };
    return { delivered: false, statusCode: response.status, error: `answered HTTP ${response.status}` };
  } catch (error) {
    return { delivered: false, statusCode: null, error: describe(error, options.timeoutMs) };
  }
}
