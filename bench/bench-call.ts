import type { BenchContext } from './workload.js';

/** One request of the bench's admin outside a measured run (set-up, tear-down): its status and parsed body; any status from 300 up throws. */
export async function benchCall(ctx: BenchContext, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${ctx.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ctx.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
