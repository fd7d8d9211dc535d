import autocannon from 'autocannon';

export type Measurement = {
  name: string;
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** Answers other than the expected status, by status. */
  unexpected: Record<string, number>;
  /** Every response time, ascending. */
  latencies: number[];
  /** CPU time of the load generator (the bench process, every thread) per answer, in ms. */
  clientCpuMs: number;
};

export type Scenario = {
  name: string;
  /** REPORT (WebDAV) only through httpDroppingBodies (undici): autocannon refuses methods it does not know. PUT (a CalDAV write) through `http`. */
  method: 'GET' | 'POST' | 'PUT' | 'REPORT';
  /** Called for every request: its path, and its body (a string sent as it is, anything else as JSON; its content-type in `headers`). */
  next: () => { path: string; body?: unknown };
  expect: number;
  /** Extra request headers (e.g. If-None-Match). */
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** Runs one scenario with autocannon; percentiles come from every response time, not a histogram. */
export async function measure(url: string, token: string, scenario: Scenario): Promise<Measurement> {
  const latencies: number[] = [];
  const unexpected: Record<string, number> = {};
  const cpuBefore = process.cpuUsage();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...scenario.headers };
  // Without a callback autocannon answers its event emitter, made thenable (the types miss the events).
  const tracker = autocannon({
    url,
    connections: scenario.connections,
    duration: scenario.seconds,
    requests: [
      {
        method: scenario.method,
        setupRequest: (request) => {
          const { path, body } = scenario.next();
          return { ...request, path, headers, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) };
        },
      },
    ],
  }) as Promise<autocannon.Result> & NodeJS.EventEmitter;
  tracker.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
    if (statusCode !== scenario.expect) unexpected[statusCode] = (unexpected[statusCode] ?? 0) + 1;
  });
  const result = await tracker;
  if (result.errors > 0) unexpected.error = result.errors;
  if (result.timeouts > 0) unexpected.timeout = result.timeouts;
  return summarise(scenario, latencies, unexpected, process.cpuUsage(cpuBefore));
}

/** A measurement of these response times (any order) and unexpected answers over the scenario's seconds, and the client's CPU use in that time. */
export function summarise(scenario: Pick<Scenario, 'name' | 'seconds'>, latencies: number[], unexpected: Record<string, number>, clientCpu: NodeJS.CpuUsage): Measurement {
  latencies.sort((a, b) => a - b);
  return {
    name: scenario.name,
    requests: latencies.length,
    perSecond: latencies.length / scenario.seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    unexpected,
    latencies,
    clientCpuMs: (clientCpu.user + clientCpu.system) / 1000 / Math.max(1, latencies.length),
  };
}
