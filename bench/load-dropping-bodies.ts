import { Pool } from 'undici';
import type { Measurement, Scenario } from './measure.js';

/** Every response time and the unexpected answers by status, not yet summarised. */
export type RawMeasurement = Pick<Measurement, 'latencies' | 'unexpected'>;

/**
 * Loads the service like autocannon (each connection sends its next request as soon as the previous
 * answer has been read to its end) through undici, reading bodies as they come and dropping them.
 * autocannon turns every body into a string: for a 1.8 MB schedule that cost the client 5 ms of CPU,
 * on the same cores as the service. Response times run from sending to the body's last byte.
 */
export async function loadDroppingBodies(url: string, token: string, scenario: Scenario): Promise<RawMeasurement> {
  const pool = new Pool(url, { connections: scenario.connections });
  const latencies: number[] = [];
  const unexpected: Record<string, number> = {};
  const deadline = performance.now() + scenario.seconds * 1000;
  const connectionLoop = async () => {
    while (performance.now() < deadline) {
      const { path, body } = scenario.next();
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...scenario.headers };
      const started = performance.now();
      try {
        const answer = await pool.request({ path, method: scenario.method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        for await (const chunk of answer.body) void chunk;
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
