import { parentPort, workerData } from 'node:worker_threads';
import { loadDroppingBodies } from './load-dropping-bodies.js';
import type { FixedScenario } from './measure-dropping-bodies.js';

/** A client thread of measureInThreads: its share of the connections, its response times posted back. */
const { url, token, scenario } = workerData as { url: string; token: string; scenario: Omit<FixedScenario, 'threads'> };
const { path, ...rest } = scenario;
parentPort!.postMessage(await loadDroppingBodies(url, token, { ...rest, next: () => ({ path }) }));
