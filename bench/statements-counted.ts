import pg from 'pg';
import { loadConfig } from '../src/infra/config.js';
import { createLogger } from '../src/infra/logger.js';
import { startServer } from '../src/server.js';
import type { BenchContext } from './workload.js';

/**
 * A second, in-process copy of the service on the bench's database, whose statements (and so round
 * trips: each query is one) a wrapper around pg.Client#query counts, BEGIN and COMMIT included.
 * pg_stat_statements would need a server restart (shared_preload_libraries); the wrapper needs nothing.
 */
export async function withCountingService<T>(ctx: BenchContext, use: (url: string, statementsDuring: (requests: () => Promise<void>) => Promise<number>) => Promise<T>): Promise<T> {
  const server = await startServer(loadConfig({ ...ctx.serviceEnv, PORT: '0' }), createLogger('warn'));
  const query = pg.Client.prototype.query;
  const statementsDuring = async (requests: () => Promise<void>) => {
    let statements = 0;
    pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
      statements += 1;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      await requests();
    } finally {
      pg.Client.prototype.query = query;
    }
    return statements;
  };
  try {
    return await use(server.url, statementsDuring);
  } finally {
    pg.Client.prototype.query = query;
    await server.close();
  }
}

/** One request of the bench admin to `url` that must answer `expect`. */
export async function expectAnswer(ctx: BenchContext, url: string, request: { method: string; path: string; body: unknown; contentType?: string }, expect: number): Promise<void> {
  const res = await fetch(`${url}${request.path}`, {
    method: request.method,
    headers: { authorization: `Bearer ${ctx.token}`, 'content-type': request.contentType ?? 'application/json' },
    body: typeof request.body === 'string' ? request.body : JSON.stringify(request.body),
  });
  if (res.status !== expect) throw new Error(`${request.method} ${request.path} answered ${res.status}: ${await res.text()}`);
}
