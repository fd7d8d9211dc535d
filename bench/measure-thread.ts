import { parentPort, workerData } from 'node:worker_threads';
import { loadDroppingBodies } from './load-dropping-bodies.js';
import type { FixedScenario } from './measure-dropping-bodies.js';

/**
 * A client thread of measureInThreads: says it is loaded, waits for the run's shared end (epoch ms),
 * loads its share of the connections until then and posts its response times back.
 */
const { url, token, scenario } = workerData as { url: string; token: string; scenario: Omit<FixedScenario, 'threads'> };
const { path, ...rest } = scenario;
parentPort!.once('message', async (endsAt: number) => {
  parentPort!.postMessage(await loadDroppingBodies(url, token, { ...rest, next: () => ({ path }) }, endsAt));
});
parentPort!.postMessage('ready');
