import { startServiceProcess, type ServiceProcess } from './service-process.js';
import { platformKey } from './test-keys.js';
import type { TestServer } from './test-server.js';

/**
 * `count` more service processes (one process each, pools of 10) on a test server's database,
 * trusting the test key: several nodes writing the same streams at once. `name` keeps their data
 * directories apart.
 */
export function startSiblingProcesses(server: TestServer, count: number, name: string): Promise<ServiceProcess[]> {
  const env = {
    ...server.database.env,
    APP_ENV: 'production',
    PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
    DATA_DIR: `/tmp/booking-test-${process.pid}-${name}`,
    DB_POOL_SIZE: '10',
    WEB_CONCURRENCY: '1',
  };
  return Promise.all(Array.from({ length: count }, () => startServiceProcess(env)));
}

/** A POST of `body` as JSON with `token`: its status and parsed answer. */
export async function postJson(url: string, path: string, body: unknown, token: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
