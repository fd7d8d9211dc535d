import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router } from 'express';

const here = path.dirname(fileURLToPath(import.meta.url));

/** package.json sits two folders up from src/api, three from dist/src/api. */
function packageVersion(): string {
  for (const candidate of ['../../package.json', '../../../package.json']) {
    const file = path.join(here, candidate);
    if (!fs.existsSync(file)) continue;
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'workspace-booking' && pkg.version) return pkg.version;
  }
  return 'unknown';
}

export type RootIndex = {
  service: string;
  version: string;
  docs: Record<'booking' | 'device' | 'catalog' | 'publish', { ui: string; openapi: string }> & { events: string };
  health: string;
  metrics: string;
};

export function rootIndex(version = packageVersion()): RootIndex {
  const area = (docsPath: string) => ({ ui: docsPath, openapi: `${docsPath}-yaml` });
  return {
    service: 'workspace-booking',
    version,
    docs: {
      booking: area('/booking/docs'),
      device: area('/device/docs'),
      catalog: area('/catalog/docs'),
      publish: area('/publish/docs'),
      events: '/booking/docs-asyncapi',
    },
    health: '/booking/v1/health',
    metrics: '/metrics',
  };
}

function html(index: RootIndex): string {
  const link = (href: string, text: string) => `<a href="${href}">${text}</a>`;
  const areas: [keyof Omit<RootIndex['docs'], 'events'>, string][] = [
    ['booking', 'Bookings, bookable resources, series, schedules, webhooks'],
    ['device', 'Device and zone records'],
    ['catalog', 'Application catalog: projects, applications, publishers, purchases, marketplace'],
    ['publish', 'App publishing: publisher sign-in and uploads'],
  ];
  const rows = areas.map(([key, what]) => `<li>${link(index.docs[key].ui, index.docs[key].ui)} — ${what} (${link(index.docs[key].openapi, 'OpenAPI')})</li>`);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${index.service} ${index.version}</title>
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5}code{background:#f2f2f2;padding:0 .2rem}</style>
</head><body>
<h1>${index.service} <small>${index.version}</small></h1>
<p>Books shared rooms, zones and devices of a workspace without double bookings.</p>
<h2>API documentation</h2>
<ul>
${rows.join('\n')}
<li>${link(index.docs.events, index.docs.events)} — the event stream (webhook and Kafka), AsyncAPI</li>
</ul>
<h2>Operations</h2>
<ul><li>${link(index.health, index.health)} — health</li><li>${link(index.metrics, index.metrics)} — Prometheus metrics</li></ul>
<p>In development, <code>npm run -s token -- --help</code> mints tokens to paste into “Authorize”.</p>
</body></html>
`;
}

/** `GET /`: what this service is and where its documentation lives (JSON unless a browser asks). */
export function rootPageRouter(): Router {
  const index = rootIndex();
  const page = html(index);
  const router = Router();
  router.get('/', (req, res) => {
    if (req.accepts(['json', 'html']) === 'html') res.type('html').send(page);
    else res.json(index);
  });
  return router;
}
