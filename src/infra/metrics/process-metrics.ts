import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * Metrics of the process as a whole (CPU, memory, event loop, webhook deliveries), shared by every
 * set of services in it: tests start several in one process, production one.
 */
export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry });

const webhookDeliveryLatency = new Histogram({
  name: 'webhook_delivery_latency_seconds',
  help: 'Time from queueing an event for the webhook endpoint to its 2xx answer',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600],
  registers: [processRegistry],
});

/** Called by the webhook sender for every delivery the endpoint accepted. */
export function observeWebhookDelivered(queuedAt: Date): void {
  webhookDeliveryLatency.observe(Math.max(0, Date.now() - queuedAt.getTime()) / 1000);
}
