import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import express from 'express';
import { pino } from 'pino';
import { requestLogging } from '../../src/api/request-logging.js';

/** An app with only the request logging and a route that logs, its log lines kept in memory. */
async function serve(level: string) {
  const lines: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().trim().split('\n').map((line) => JSON.parse(line)));
      done();
    },
  });
  const app = express();
  app.use(requestLogging(app, pino({ level }, stream)));
  app.get('/fails', (req, res) => {
    req.log.error('it failed');
    res.status(500).end();
  });
  const server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, lines, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('request logging', () => {
  for (const level of ['warn', 'info']) {
    it(`at ${level}: every answer carries a request id, and what a request logs is bound to it`, async () => {
      const app = await serve(level);
      try {
        const generated = await fetch(`${app.url}/fails`);
        expect(generated.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
        const echoed = await fetch(`${app.url}/fails?code=secret&x=1`, { headers: { 'x-request-id': 'trace-7' } });
        expect(echoed.headers.get('x-request-id')).to.equal('trace-7');
        const failures = app.lines.filter((line) => line.msg === 'it failed');
        expect(failures.map((line) => line.req.id)).to.deep.equal([generated.headers.get('x-request-id'), 'trace-7']);
        expect(failures[1]!.req).to.include({ method: 'GET', url: '/fails?code=[Redacted]&x=1' });
        // A line per request only where info is logged.
        expect(app.lines.some((line) => /^request (completed|errored)$/.test(line.msg))).to.equal(level === 'info');
      } finally {
        await app.close();
      }
    });
  }
});
