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
  const clients = shares.map((connections) => {
    const worker = new Worker(clientThread, { eval: true, workerData: { url, token, scenario: { ...request, connections } } });
    const failed = new Promise<never>((_, reject) => {
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`a client thread exited (${code}) before it answered`)));
    });
    const next = <T>() => Promise.race([new Promise<T>((resolve) => worker.once('message', resolve)), failed]);
    return { worker, next };
  });
  // Loaded first (tsx, undici), so that neither their start-up nor a staggered start is measured.
  await Promise.all(clients.map((client) => client.next<'ready'>()));
  const cpuBefore = process.cpuUsage();
  const endsAt = Date.now() + scenario.seconds * 1000;
  const parts = await Promise.all(
    clients.map((client) => {
      const part = client.next<RawMeasurement>();
      client.worker.postMessage(endsAt);
      return part;
    }),
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
