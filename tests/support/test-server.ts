import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/infra/config.js';
import { createLogger } from '../../src/infra/logger.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { mintToken, platformKey, type TokenClaims } from './test-keys.js';

export type TestServer = RunningServer & {
  database: TestDatabase;
  /** A workspace id fresh for this server; tokens default to it. */
  workspace: string;
  token(claims?: TokenClaims): string;
  request(method: string, path: string, options?: { body?: unknown; token?: string | null; headers?: Record<string, string> }): Promise<TestResponse>;
  stop(): Promise<void>;
};

export type TestResponse = { status: number; body: any; headers: Headers };

/**
 * The real service over real HTTP on a fresh database (PostgreSQL when DB_HOST is set), trusting
 * the test platform key. `env` adds or overrides configuration variables; `reuse` starts it on the
 * database and workspace of a server that was closed (a restart).
 */
export async function startTestServer(env: Record<string, string> = {}, reuse?: { database: TestDatabase; workspace: string }): Promise<TestServer> {
  const database = reuse?.database ?? (await createTestDatabase());
  const workspace = reuse?.workspace ?? randomUUID();
  const config = loadConfig({
    PORT: '0',
    APP_ENV: 'production',
    PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
    DATA_DIR: `/tmp/booking-test-${process.pid}`,
    // The suite runs once more with the read models following the log (.ci/run).
    ...(process.env.PROJECTIONS ? { PROJECTIONS: process.env.PROJECTIONS } : {}),
    ...database.env,
    ...env,
  });
  const server = await startServer(config, createLogger(process.env.TEST_LOG_LEVEL || 'silent'), database.isServer ? undefined : database.db);
  const token = (claims: TokenClaims = {}) => mintToken({ workspace, ...claims });
  return {
    ...server,
    database,
    workspace,
    token,
    async request(method, path, { body, token: bearer = token(), headers = {} } = {}) {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = text;
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async stop() {
      await server.close();
      await database.destroy();
    },
  };
}
