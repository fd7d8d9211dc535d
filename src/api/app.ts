import { randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import { pinoHttp } from 'pino-http';
import { authenticate } from './authenticate.js';
import { resourcesRouter } from './booking/resources-router.js';
import { healthRouter } from './health-router.js';
import { httpErrorHandler, notFoundHandler } from './http-error-handler.js';
import { openApiDocsRouter, openApiValidator, type OpenApiArea } from './openapi-documents.js';
import type { Services } from './services.js';

const bookingArea: OpenApiArea = { file: 'booking.yaml', prefix: '/booking/', docsPath: '/booking/docs' };

const requestId = (header: unknown) => (typeof header === 'string' && /^[\w.-]{1,64}$/.test(header) ? header : randomUUID());

export function createApp(services: Services): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  app.use(
    pinoHttp({
      logger: services.logger,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
      genReqId: (req, res) => {
        const id = requestId(req.headers['x-request-id']);
        res.setHeader('x-request-id', id);
        return id;
      },
    }),
  );

  app.use(openApiDocsRouter(bookingArea));
  app.use('/booking/v1/health', healthRouter(services));
  app.use(openApiValidator(bookingArea));
  app.use('/booking/v1', authenticate(services.verifyToken));
  app.use('/booking/v1/resources', resourcesRouter(services));

  app.use(notFoundHandler);
  app.use(httpErrorHandler);
  return app;
}
