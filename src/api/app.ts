import { freeResourcesRouter } from './booking/free-resources-router.js';
import express, { type Express } from 'express';
import { authenticate, refuseFeedTokenElsewhere } from './authenticate.js';
import { limitAnalysedResources } from './booking/analysed-resources-limit.js';
import { asOfRouter } from './booking/as-of-router.js';
import { bookingsRouter } from './booking/bookings-router.js';
import { calendarFeedRouter } from './booking/calendar-feed-router.js';
import { calendarFeedsRouter } from './booking/calendar-feeds-router.js';
import { calendarPasswordsRouter } from './booking/calendar-passwords-router.js';
import { eventsFeedRouter } from './booking/events-feed-router.js';
import { historyRouter } from './booking/history-router.js';
import { quotasRouter } from './booking/quotas-router.js';
import { approvalsRouter } from './booking/approvals-router.js';
import { approvalDelegationsRouter } from './booking/approval-delegations-router.js';
import { waitlistRouter } from './booking/waitlist-router.js';
import { resourceScheduleRouter } from './booking/resource-schedule-router.js';
import { resourcesRouter } from './booking/resources-router.js';
import { seriesRouter } from './booking/series-router.js';
import { utilizationRouter } from './booking/utilization-router.js';
import { webhooksRouter } from './booking/webhooks-router.js';
import { blackoutsRouter } from './booking/blackouts-router.js';
import { bundlesRouter } from './booking/bundles-router.js';
import { catalogRouter } from './catalog/catalog-router.js';
import { davRouter, wellKnownCaldav } from './dav/dav-router.js';
import { closeConnectionsWhileDraining, type Draining } from './draining.js';
import { healthRouter } from './health-router.js';
import { jsonBodyParser } from './json-body-parser.js';
import { metricsRouter } from './metrics-router.js';
import { httpErrorHandler, notFoundHandler } from './http-error-handler.js';
import { idempotentWrites } from './idempotent-writes.js';
import { asyncApiDocsRouter, openApiDocsRouter, openApiValidator, type OpenApiArea } from './openapi-documents.js';
import { assetsRouter } from './publishing/assets-router.js';
import { publishRouter } from './publishing/publish-router.js';
import { signInRouter } from './publishing/sign-in-router.js';
import { deviceSelfRouter } from './record/device-self-router.js';
import { devicesRouter } from './record/devices-router.js';
import { limitRate } from './rate-limit.js';
import { recordQueryParser } from './record/record-query-string.js';
import { zonesRouter } from './record/zones-router.js';
import { refuseHostileInput } from './refuse-hostile-input.js';
import { requestLogging } from './request-logging.js';
import { rootPageRouter } from './root-page.js';
import { routeReads, stampConsistencyTokens } from './route-reads.js';
import type { Services } from '../services.js';
import { localAssetsDir } from '../infra/publishing/create-asset-storage.js';
import { localAssetsPath } from '../infra/publishing/local-asset-storage.js';

const bookingArea: OpenApiArea = { file: 'booking.yaml', prefix: '/booking/', docsPath: '/booking/docs' };
const deviceArea: OpenApiArea = { file: 'devices.yaml', prefix: '/device/', docsPath: '/device/docs' };
const catalogArea: OpenApiArea = { file: 'catalog.yaml', prefix: '/catalog/', docsPath: '/catalog/docs' };
// The validator sees the sign-in routes only: it would buffer the upload stream (see publishing.yaml).
const publishingArea: OpenApiArea = { file: 'publishing.yaml', prefix: '/auth/', docsPath: '/publish/docs' };

/** `draining`: set on SIGTERM (server.ts), health then answers 503 and every answer closes its connection. */
export function createApp(services: Services, draining?: Draining): Express {
  const app = express();
  app.disable('x-powered-by');
  if (draining) app.use(closeConnectionsWhileDraining(draining));
  // Hashing every body for a weak ETag cost more than a schedule's JSON; no client here revalidates.
  app.disable('etag');
  app.set('query parser', 'extended');
  app.use(metricsRouter(services));
  app.use(requestLogging(app, services.logger));
  app.use(stampConsistencyTokens(services));

  // CalDAV (contract §25): XML bodies, read by its own router before the JSON parser and the validators.
  app.use(wellKnownCaldav());
  app.use('/dav', davRouter(services));

  // One JSON parser for every area; multipart uploads are streamed by their own route.
  app.use(jsonBodyParser());
  app.use(refuseHostileInput);
  app.use(rootPageRouter());
  app.use(openApiDocsRouter(bookingArea));
  app.use(asyncApiDocsRouter());
  app.use('/booking/v1/health', healthRouter(services, draining));
  app.use('/booking/v1/analytics/utilization', limitAnalysedResources);
  app.use(refuseFeedTokenElsewhere);
  app.use(openApiValidator(bookingArea));
  // By bearer, or on a calendar feed URL by its feed token (contract §18).
  app.use('/booking/v1', authenticate(services.verifyToken, services));
  app.use('/booking/v1', limitRate(services));
  app.use('/booking/v1', routeReads(services));
  app.use('/booking/v1', idempotentWrites(services));
  app.use('/booking/v1/calendar-feeds', calendarFeedsRouter(services));
  app.use('/booking/v1/calendar-passwords', calendarPasswordsRouter(services));
  app.use('/booking/v1', calendarFeedRouter(services));
  app.use('/booking/v1', historyRouter(services));
  app.use('/booking/v1', asOfRouter(services));
  app.use('/booking/v1/events', eventsFeedRouter(services));
  app.use('/booking/v1/free-resources', freeResourcesRouter(services));
  app.use('/booking/v1/resources', resourcesRouter(services));
  app.use('/booking/v1/resources', resourceScheduleRouter(services));
  app.use('/booking/v1/bookings', seriesRouter(services));
  app.use('/booking/v1/bookings', bookingsRouter(services));
  app.use('/booking/v1/webhooks', webhooksRouter(services));
  app.use('/booking/v1/quotas', quotasRouter(services));
  app.use('/booking/v1/approvals', approvalsRouter(services));
  app.use('/booking/v1/approval-delegations', approvalDelegationsRouter(services));
  app.use('/booking/v1/waitlist', waitlistRouter(services));
  app.use('/booking/v1/blackouts', blackoutsRouter(services));
  app.use('/booking/v1/bundles', bundlesRouter(services));
  app.use('/booking/v1/analytics', utilizationRouter(services));

  app.use(openApiDocsRouter(deviceArea));
  app.use(deviceArea.prefix, recordQueryParser);
  app.use(openApiValidator(deviceArea));
  app.use('/device/v1/devices/self', deviceSelfRouter(services));
  app.use('/device/v1', authenticate(services.verifyToken));
  app.use('/device/v1', routeReads(services));
  app.use('/device/v1/devices', devicesRouter(services));
  app.use('/device/v1/zones', zonesRouter(services));

  app.use(openApiDocsRouter(catalogArea));
  app.use(catalogArea.prefix, recordQueryParser);
  app.use(openApiValidator(catalogArea));
  app.use('/catalog/v1', authenticate(services.verifyToken));
  app.use('/catalog/v1', routeReads(services));
  app.use('/catalog/v1', catalogRouter(services));

  app.use(openApiDocsRouter(publishingArea));
  app.use(openApiValidator(publishingArea));
  app.use(signInRouter(services));
  app.use(publishRouter(services));
  if (!services.config.storageBucket) app.use(localAssetsPath, assetsRouter(localAssetsDir(services.config)));

  app.use(notFoundHandler);
  app.use(httpErrorHandler);
  return app;
}
