import path from 'node:path';

export type AppEnv = 'production' | 'development';

export type DatabaseConfig =
  | { kind: 'postgres'; host: string; port: number; user?: string; password?: string; database?: string; poolSize: number }
  | { kind: 'embedded'; dataDir: string };

export type Config = {
  port: number;
  appEnv: AppEnv;
  dataDir: string;
  database: DatabaseConfig;
  eventStore: 'postgres' | 'eventstoredb';
  eventStoreConnectionString?: string;
  auth: {
    endpoint?: string;
    issuer?: string;
    audience?: string;
    rolesClaim: string;
    groupsClaim: string;
  };
  deviceServiceUrl?: string;
  /** DEVICE_SERVICE_TOKEN: bearer token (LV1) the periodic reconciliation sends to PLATFORM_DEVICE_SERVICE_URL. */
  deviceServiceToken?: string;
  webhook: { endpoint?: string; secret?: string };
  kafka: { brokers: string[]; topic: string };
  reminderMinutes: number;
  reconcileIntervalSeconds: number;
  publisherTokenSecret?: string;
  storageBucket?: string;
};

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

function appEnvOf(env: Env): AppEnv {
  const raw = env.APP_ENV;
  if (raw === undefined || raw === '') return env.PLATFORM_AUTH_ENDPOINT ? 'production' : 'development';
  if (raw !== 'production' && raw !== 'development') throw new ConfigError(`APP_ENV must be production or development, got "${raw}"`);
  return raw;
}

export function loadConfig(env: Env = process.env): Config {
  const appEnv = appEnvOf(env);
  const dataDir = path.resolve(env.DATA_DIR || './.data');
  const authEndpoint = env.PLATFORM_AUTH_ENDPOINT || undefined;
  if (appEnv === 'production' && !authEndpoint) {
    throw new ConfigError('APP_ENV is production but PLATFORM_AUTH_ENDPOINT is unset: set it to a JWKS URL or a PEM public key');
  }
  const eventStore = env.EVENT_STORE || 'postgres';
  if (eventStore !== 'postgres' && eventStore !== 'eventstoredb') {
    throw new ConfigError(`EVENT_STORE must be postgres or eventstoredb, got "${eventStore}"`);
  }
  if (eventStore === 'eventstoredb' && !env.EVENTSTORE_CONNECTION_STRING) {
    throw new ConfigError('EVENT_STORE is eventstoredb but EVENTSTORE_CONNECTION_STRING is unset');
  }
  const database: DatabaseConfig = env.DB_HOST
    ? {
        kind: 'postgres',
        host: env.DB_HOST,
        port: integer(env, 'DB_PORT', 5432, 1),
        user: env.DB_USERNAME || undefined,
        password: env.DB_PASSWORD || undefined,
        database: env.DB_DATABASE || undefined,
        poolSize: integer(env, 'DB_POOL_SIZE', 20, 1),
      }
    : { kind: 'embedded', dataDir: path.join(dataDir, 'pglite') };
  return {
    port: integer(env, 'PORT', 3000),
    appEnv,
    dataDir,
    database,
    eventStore,
    eventStoreConnectionString: env.EVENTSTORE_CONNECTION_STRING || undefined,
    auth: {
      endpoint: authEndpoint,
      issuer: env.AUTH_ISSUER || undefined,
      audience: env.AUTH_AUDIENCE || undefined,
      rolesClaim: env.AUTH_ROLES_CLAIM || 'roles',
      groupsClaim: env.AUTH_GROUPS_CLAIM || 'groups',
    },
    deviceServiceUrl: env.PLATFORM_DEVICE_SERVICE_URL?.replace(/\/+$/, '') || undefined,
    deviceServiceToken: env.DEVICE_SERVICE_TOKEN || undefined,
    webhook: { endpoint: env.WEBHOOK_ENDPOINT || undefined, secret: env.WEBHOOK_SECRET || undefined },
    kafka: {
      brokers: (env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean),
      topic: env.KAFKA_TOPIC || 'booking.events',
    },
    reminderMinutes: integer(env, 'REMINDER_MINUTES', 15),
    reconcileIntervalSeconds: integer(env, 'RECONCILE_INTERVAL_SECONDS', 300, 1),
    publisherTokenSecret: env.PUBLISHER_TOKEN_SECRET || undefined,
    storageBucket: env.STORAGE_BUCKET || undefined,
  };
}
