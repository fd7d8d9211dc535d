import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import swaggerUi from 'swagger-ui-express';
import { parse } from 'yaml';
import { cacheOpenApiRouteMatchers } from './openapi-route-matcher-cache.js';

const openapiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../openapi');

export type OpenApiArea = { file: string; prefix: string; docsPath: string };

/**
 * The page's start script, written here rather than by swagger-ui-express: that one splices the
 * document into its template with `String.replace`, which reads `$\``, `$'` and `$&` in any
 * description as replacement patterns and leaves a script that does not parse.
 */
export function swaggerUiInitScript(document: unknown): string {
  // JSON is valid JavaScript; U+2028/2029 are escaped for engines older than ES2019.
  const spec = JSON.stringify(document).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `window.onload = function () {
  window.ui = SwaggerUIBundle({
    spec: ${spec},
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout'
  });
};
`;
}

/** Serves an area's OpenAPI file as YAML and as Swagger UI (public, no token). */
export function openApiDocsRouter(area: OpenApiArea): Router {
  const text = fs.readFileSync(path.join(openapiDir, area.file), 'utf8');
  const initScript = swaggerUiInitScript(parse(text));
  const router = Router();
  router.get(`${area.docsPath}-yaml`, (_req, res) => {
    res.type('application/yaml').send(text);
  });
  router.get(`${area.docsPath}/swagger-ui-init.js`, (_req, res) => {
    res.type('application/javascript').send(initScript);
  });
  // Assets and the HTML page only; the document travels in the start script above.
  router.use(area.docsPath, swaggerUi.serveFiles(undefined), swaggerUi.setup(undefined, { customSiteTitle: `${area.docsPath} · workspace-booking` }));
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
