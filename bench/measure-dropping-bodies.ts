import { Worker } from 'node:worker_threads';
import { loadDroppingBodies, type RawMeasurement } from './load-dropping-bodies.js';
import { summarise, type Measurement, type Scenario } from './measure.js';

/** One request, the same every time: what a client thread can send without the bench's generators. */
export type FixedScenario = Omit<Scenario, 'next'> & { path: string; threads: number };

/** A thread's script: TypeScript through tsx, which a worker does not inherit from the bench's process. */
const clientThread = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(new URL('./measure-thread.ts', import.meta.url).href)}); })`;

/**
 * Runs a fixed request from `threads` client threads (loadDroppingBodies), the connections shared
 * among them, and merges their response times: for answers that one client thread cannot keep up with.
 */
export async function measureInThreads(url: string, token: string, scenario: FixedScenario): Promise<Measurement> {
  const { threads, ...request } = scenario;
  const shares = Array.from({ length: threads }, (_, i) => Math.floor(scenario.connections / threads) + (i < scenario.connections % threads ? 1 : 0));
  const cpuBefore = process.cpuUsage();
  const parts = await Promise.all(
    shares.map(
      (connections) =>
        new Promise<RawMeasurement>((resolve, reject) => {
          const worker = new Worker(clientThread, { eval: true, workerData: { url, token, scenario: { ...request, connections } } });
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    ),
  );
  const unexpected: Record<string, number> = {};
  for (const part of parts) for (const [status, count] of Object.entries(part.unexpected)) unexpected[status] = (unexpected[status] ?? 0) + count;
  return summarise(scenario, parts.flatMap((part) => part.latencies), unexpected, process.cpuUsage(cpuBefore));
}

/** loadDroppingBodies in this thread, for requests from a generator (large answers that differ). */
export async function measureDroppingBodies(url: string, token: string, scenario: Scenario): Promise<Measurement> {
  const cpuBefore = process.cpuUsage();
  const { latencies, unexpected } = await loadDroppingBodies(url, token, scenario);
  return summarise(scenario, latencies, unexpected, process.cpuUsage(cpuBefore));
}
