import { Pool, type Dispatcher } from 'undici';
import type { Measurement, Scenario } from './measure.js';

/** Every response time and the unexpected answers by status, not yet summarised. */
export type RawMeasurement = Pick<Measurement, 'latencies' | 'unexpected'>;

/**
 * Loads the service like autocannon (each connection sends its next request as soon as the previous
 * answer has been read to its end) through undici, reading bodies as they come and dropping them.
 * autocannon turns every body into a string: for a 1.8 MB schedule that cost the client 5 ms of CPU,
 * on the same cores as the service. Response times run from sending to the body's last byte. The run
 * ends at `endsAt` (epoch ms, shared by client threads); answers completed later are not counted.
 */
export async function loadDroppingBodies(url: string, token: string, scenario: Scenario, endsAt = Date.now() + scenario.seconds * 1000): Promise<RawMeasurement> {
  const pool = new Pool(url, { connections: scenario.connections });
  const latencies: number[] = [];
  const unexpected: Record<string, number> = {};
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...scenario.headers };
  const connectionLoop = async () => {
    while (Date.now() < endsAt) {
      const { path, body } = scenario.next();
      const started = performance.now();
      try {
        // undici's type lists only the HTTP methods; it sends any token, WebDAV's REPORT too.
        const answer = await pool.request({ path, method: scenario.method as Dispatcher.HttpMethod, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
        for await (const chunk of answer.body) void chunk;
        // As autocannon counts: an answer completed after the end is not part of the run.
        if (Date.now() > endsAt) break;
        latencies.push(performance.now() - started);
        if (answer.statusCode !== scenario.expect) unexpected[answer.statusCode] = (unexpected[answer.statusCode] ?? 0) + 1;
      } catch {
        unexpected.error = (unexpected.error ?? 0) + 1;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: scenario.connections }, connectionLoop));
  } finally {
    await pool.close();
  }
  return { latencies, unexpected };
}
