import path from 'node:path';

export type AppEnv = 'production' | 'development';

export type DatabaseConfig =
  | {
      kind: 'postgres';
      host: string;
      port: number;
      user?: string;
      password?: string;
      database?: string;
      poolSize: number;
      /** DB_READ_HOST, DB_READ_PORT: a streaming replica the reads go to (contract §19), same user and database. */
      replica?: { host: string; port: number; maxLagMs: number };
    }
  | { kind: 'embedded'; dataDir: string };

export type Config = {
  port: number;
  appEnv: AppEnv;
  dataDir: string;
  database: DatabaseConfig;
  /** DB_CONNECT_TIMEOUT_SECONDS: how long start-up waits for an unreachable database before giving up. */
  dbConnectTimeoutSeconds: number;
  /** SHUTDOWN_GRACE_SECONDS: how long requests in flight may take to finish after SIGTERM (contract §19). */
  shutdownGraceSeconds: number;
  /** METRICS=off turns GET /metrics off. */
  metrics: boolean;
  eventStore: 'postgres' | 'eventstoredb';
  eventStoreConnectionString?: string;
  /**
   * PROJECTIONS: `inline` (default with the PostgreSQL store) keeps the read models in the append's
   * transaction; `async` (always with EventStoreDB) runs them from a checkpointed subscription.
   */
  projections: 'inline' | 'async';
  /** PROJECTION_WAIT_MS: how long a command waits for the read models to pass its append before answering 503. */
  projectionWaitMs: number;
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
  /** RETENTION_DAYS: bookings ended longer ago than this are archived daily (contract §13); 0 = never. */
  retentionDays: number;
  /** RATE_LIMIT_PER_MINUTE: requests a token subject (or feed token) may make in any 60 s (contract §18); 0 = no limit. */
  rateLimitPerMinute: number;
  /** CALENDAR_PASSWORD_DAYS: how long a calendar password works after its creation (contract §25). */
  calendarPasswordDays: number;
  publisherTokenSecret?: string;
  storageBucket?: string;
  oauth: OAuthConfig;
  /** CALDAV_ADDRESS_DOMAIN: the domain of resource principals' `mailto:` addresses (contract §25). */
  caldavAddressDomain: string;
};

export type OAuthClient = { clientId: string; clientSecret: string };

/** Publisher sign-in providers; a provider is on when its client id and secret are set. */
export type OAuthConfig = {
  /** OAUTH_REDIRECT_BASE_URL: the public origin providers send the browser back to; unset = the request's origin. */
  redirectBaseUrl?: string;
  google?: OAuthClient & { issuer: string };
  github?: OAuthClient & { authorizeUrl: string; tokenUrl: string; apiUrl: string };
  oidc?: OAuthClient & { issuer: string; scope: string };
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

function switchOf(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'on') return true;
  if (raw === 'off') return false;
  throw new ConfigError(`${name} must be on or off, got "${raw}"`);
}

function appEnvOf(env: Env): AppEnv {
  const raw = env.APP_ENV;
  if (raw === undefined || raw === '') return env.PLATFORM_AUTH_ENDPOINT ? 'production' : 'development';
  if (raw !== 'production' && raw !== 'development') throw new ConfigError(`APP_ENV must be production or development, got "${raw}"`);
  return raw;
}

function url(env: Env, name: string, fallback?: string): string | undefined {
  const raw = env[name] || fallback;
  if (raw === undefined) return undefined;
  if (!/^https?:\/\/[^\s]+$/.test(raw)) throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

function oauthClient(env: Env, prefix: string): OAuthClient | undefined {
  const clientId = env[`${prefix}_CLIENT_ID`];
  const clientSecret = env[`${prefix}_CLIENT_SECRET`];
  if (!clientId && !clientSecret) return undefined;
  if (!clientId || !clientSecret) throw new ConfigError(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`);
  return { clientId, clientSecret };
}

function oauthConfigOf(env: Env): OAuthConfig {
  const google = oauthClient(env, 'GOOGLE');
  const github = oauthClient(env, 'GITHUB');
  const oidc = oauthClient(env, 'OIDC');
  const oidcIssuer = url(env, 'OIDC_ISSUER');
  if (oidc && !oidcIssuer) throw new ConfigError('OIDC_CLIENT_ID is set but OIDC_ISSUER is not');
  return {
    redirectBaseUrl: url(env, 'OAUTH_REDIRECT_BASE_URL'),
    google: google && { ...google, issuer: url(env, 'GOOGLE_ISSUER', 'https://accounts.google.com')! },
    github: github && {
      ...github,
      authorizeUrl: url(env, 'GITHUB_AUTHORIZE_URL', 'https://github.com/login/oauth/authorize')!,
      tokenUrl: url(env, 'GITHUB_TOKEN_URL', 'https://github.com/login/oauth/access_token')!,
      apiUrl: url(env, 'GITHUB_API_URL', 'https://api.github.com')!,
    },
    oidc: oidc && { ...oidc, issuer: oidcIssuer!, scope: env.OIDC_SCOPE || 'openid email profile' },
  };
}

/** An HS256 secret short enough to guess offline would let anyone mint publisher tokens. */
function publisherTokenSecretOf(env: Env): string | undefined {
  const secret = env.PUBLISHER_TOKEN_SECRET || undefined;
  if (secret !== undefined && Buffer.byteLength(secret) < 32) throw new ConfigError('PUBLISHER_TOKEN_SECRET must be at least 32 bytes long');
  return secret;
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
  const projections = env.PROJECTIONS || (eventStore === 'eventstoredb' ? 'async' : 'inline');
  if (projections !== 'inline' && projections !== 'async') throw new ConfigError(`PROJECTIONS must be inline or async, got "${projections}"`);
  if (eventStore === 'eventstoredb' && projections === 'inline') {
    throw new ConfigError('PROJECTIONS=inline needs the PostgreSQL event store: EventStoreDB appends are not PostgreSQL transactions');
  }
  if (env.DB_READ_HOST && !env.DB_HOST) throw new ConfigError('DB_READ_HOST is a replica of the server at DB_HOST: set DB_HOST too');
  const database: DatabaseConfig = env.DB_HOST
    ? {
        kind: 'postgres',
        host: env.DB_HOST,
        port: integer(env, 'DB_PORT', 5432, 1),
        user: env.DB_USERNAME || undefined,
        password: env.DB_PASSWORD || undefined,
        database: env.DB_DATABASE || undefined,
        poolSize: integer(env, 'DB_POOL_SIZE', 20, 1),
        replica: env.DB_READ_HOST
          ? { host: env.DB_READ_HOST, port: integer(env, 'DB_READ_PORT', integer(env, 'DB_PORT', 5432, 1), 1), maxLagMs: integer(env, 'DB_READ_MAX_LAG_MS', 2000) }
          : undefined,
      }
    : { kind: 'embedded', dataDir: path.join(dataDir, 'pglite') };
  return {
    port: integer(env, 'PORT', 3000),
    appEnv,
    dataDir,
    database,
    dbConnectTimeoutSeconds: integer(env, 'DB_CONNECT_TIMEOUT_SECONDS', 60),
    shutdownGraceSeconds: integer(env, 'SHUTDOWN_GRACE_SECONDS', 25),
    metrics: switchOf(env, 'METRICS'),
    eventStore,
    eventStoreConnectionString: env.EVENTSTORE_CONNECTION_STRING || undefined,
    projections,
    projectionWaitMs: integer(env, 'PROJECTION_WAIT_MS', 10_000, 1),
    auth: {
      endpoint: authEndpoint,
      issuer: env.AUTH_ISSUER || undefined,
      audience: env.AUTH_AUDIENCE || undefined,
      rolesClaim: env.AUTH_ROLES_CLAIM || 'roles',
      groupsClaim: env.AUTH_GROUPS_CLAIM || 'groups',
    },
    deviceServiceUrl: url(env, 'PLATFORM_DEVICE_SERVICE_URL')?.replace(/\/+$/, ''),
    deviceServiceToken: env.DEVICE_SERVICE_TOKEN || undefined,
    webhook: { endpoint: env.WEBHOOK_ENDPOINT || undefined, secret: env.WEBHOOK_SECRET || undefined },
    kafka: {
      brokers: (env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean),
      topic: env.KAFKA_TOPIC || 'booking.events',
    },
    reminderMinutes: integer(env, 'REMINDER_MINUTES', 15),
    reconcileIntervalSeconds: integer(env, 'RECONCILE_INTERVAL_SECONDS', 300, 1),
    retentionDays: integer(env, 'RETENTION_DAYS', 730),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 1200),
    calendarPasswordDays: integer(env, 'CALENDAR_PASSWORD_DAYS', 365, 1),
    caldavAddressDomain: env.CALDAV_ADDRESS_DOMAIN || 'resources.invalid',
    publisherTokenSecret: publisherTokenSecretOf(env),
    storageBucket: env.STORAGE_BUCKET || undefined,
    oauth: oauthConfigOf(env),
  };
}
