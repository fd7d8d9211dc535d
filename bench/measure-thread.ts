import { parentPort, workerData } from 'node:worker_threads';
import { measure } from './measure.js';
import type { FixedScenario } from './measure-in-threads.js';

/** A client thread of measureInThreads: its share of the connections, its measurement posted back. */
const { url, token, scenario } = workerData as { url: string; token: string; scenario: Omit<FixedScenario, 'threads'> };
const { path, ...rest } = scenario;
parentPort!.postMessage(await measure(url, token, { ...rest, next: () => ({ path }) }));
