import { register } from 'node:module';

/** OpenTelemetry is on only when an OTLP endpoint for traces is configured (contract §18). */
export function tracingConfigured(env: Record<string, string | undefined>): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export type Tracing = { shutdown(): Promise<void> };

/**
 * Starts the OpenTelemetry SDK with the http, express and pg instrumentations, exporting over
 * OTLP/HTTP as the standard OTEL_* variables say (protobuf unless OTEL_EXPORTER_OTLP_PROTOCOL is
 * http/json; OTEL_SERVICE_NAME default workspace-booking). Must run before express and pg are
 * imported: the modules are patched as they load (import-in-the-middle's hook for ES modules).
 * Loaded only when tracingConfigured: nothing of the SDK is in memory otherwise.
 */
export async function startTracing(): Promise<Tracing> {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  process.env.OTEL_SERVICE_NAME ??= 'workspace-booking';
  // Only traces: the service's metrics are Prometheus' (/metrics) and its logs pino's.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  const [{ NodeSDK }, { HttpInstrumentation }, { ExpressInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const health = /^\/(booking|device|catalog|publish)\/v1\/health|^\/metrics/;
  const sdk = new NodeSDK({
    instrumentations: [
      // Probes and scrapes would fill the trace store with nothing to follow.
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => health.test(req.url ?? '') }),
      // Spans for routers and route handlers (the routers give the request span its route template); the middlewares every request passes are left out.
      new ExpressInstrumentation({ ignoreLayersType: ['middleware' as never] }),
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
