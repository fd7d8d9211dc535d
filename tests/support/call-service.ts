/**
 * An answer: `body` parsed when it is JSON, else its text (a load balancer's own error page); status
 * 0 when no HTTP answer came (refused, reset, timed out), the cause in `body`.
 */
export type Answer = { status: number; body: any };

/**
 * One request of a fault run's client to `baseUrl` with a bearer token and a JSON body, given up
 * after `timeoutMs`. Never throws: a connection that failed answers status 0 with the error's cause as text (e.g.
 * `Error: read ECONNRESET`), which the runs count as a reset.
 */
export async function callService(baseUrl: string, token: string, method: string, path: string, body?: unknown, { timeoutMs = 30_000 } = {}): Promise<Answer> {
  try {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    const json = /\bjson\b/.test(res.headers.get('content-type') ?? '');
    return { status: res.status, body: text ? (json ? JSON.parse(text) : text) : null };
  } catch (error) {
    return { status: 0, body: String((error as { cause?: unknown }).cause ?? error) };
  }
}
