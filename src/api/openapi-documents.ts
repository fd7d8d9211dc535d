import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import swaggerUi from 'swagger-ui-express';
import { parse } from 'yaml';
import { cacheOpenApiRouteMatchers } from './openapi-route-matcher-cache.js';

const openapiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../openapi');

export type OpenApiArea = { file: string; prefix: string; docsPath: string };

/** Serves an area's OpenAPI file as YAML and as Swagger UI (public, no token). */
export function openApiDocsRouter(area: OpenApiArea): Router {
  const text = fs.readFileSync(path.join(openapiDir, area.file), 'utf8');
  const document = parse(text) as swaggerUi.JsonObject;
  const router = Router();
  router.get(`${area.docsPath}-yaml`, (_req, res) => {
    res.type('application/yaml').send(text);
  });
  router.use(area.docsPath, swaggerUi.serveFiles(document), swaggerUi.setup(document));
  return router;
}

const asyncApiPath = path.resolve(openapiDir, '../asyncapi/booking-events.yaml');

/** Serves the AsyncAPI description of the event stream as YAML (public, no token). */
export function asyncApiDocsRouter(): Router {
  const text = fs.readFileSync(asyncApiPath, 'utf8');
  const router = Router();
  router.get('/booking/docs-asyncapi', (_req, res) => {
    res.type('application/yaml').send(text);
  });
  return router;
}

/** Validates every request under the area's prefix against its OpenAPI file. */
export function openApiValidator(area: OpenApiArea): RequestHandler[] {
  cacheOpenApiRouteMatchers();
  const validators = OpenApiValidator.middleware({
    apiSpec: path.join(openapiDir, area.file),
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses: false,
    validateSecurity: false,
    validateFormats: true,
  });
  const wrapped = validators.map<RequestHandler>((mw) => (req, res, next) => (req.path.startsWith(area.prefix) ? mw(req, res, next) : next()));
  return wrapped;
}
