import type { BookingsArchiveTable, BookingsTable } from './tables/bookings.table.js';
import type { ApplicationsTable, ProjectsTable, PublishersTable, PurchasesTable } from './tables/catalog.table.js';
import type { DevicesTable, ZonesTable } from './tables/device-records.table.js';
import type { EventsTable, StreamsTable } from './tables/events.table.js';
import type { IdempotencyKeysTable } from './tables/idempotency-keys.table.js';
import type { ProcessorCheckpointsTable } from './tables/processor-checkpoints.table.js';
import type { RateLimitBucketsTable } from './tables/rate-limit-buckets.table.js';
import type { ResourcesTable } from './tables/resources.table.js';
import type { ScheduledRunsTable } from './tables/scheduled-runs.table.js';
import type { TimersTable } from './tables/timers.table.js';
import type { UtilizationBookingsTable } from './tables/utilization-bookings.table.js';
import type { WebhookDeliveriesTable } from './tables/webhook-deliveries.table.js';

/** Every table of the service's database; one line per table file under tables/. */
export type DB = {
  streams: StreamsTable;
  events: EventsTable;
  resources: ResourcesTable;
  bookings: BookingsTable;
  bookings_archive: BookingsArchiveTable;
  zones: ZonesTable;
  devices: DevicesTable;
  processor_checkpoints: ProcessorCheckpointsTable;
  timers: TimersTable;
  webhook_deliveries: WebhookDeliveriesTable;
  publishers: PublishersTable;
  projects: ProjectsTable;
  applications: ApplicationsTable;
  purchases: PurchasesTable;
  utilization_bookings: UtilizationBookingsTable;
  scheduled_runs: ScheduledRunsTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_limit_buckets: RateLimitBucketsTable;
};
