import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeDeviceService = {
  url: string;
  /** Records it knows, by path such as "/device/v1/zones/zone-1". */
  records: Map<string, Record<string, unknown>>;
  requests: { path: string; authorization?: string }[];
  close(): Promise<void>;
};

/** A device service on loopback: answers known records, 404 for the rest, 500 for ids starting "boom". */
export async function startFakeDeviceService(): Promise<FakeDeviceService> {
  const records = new Map<string, Record<string, unknown>>();
  const requests: FakeDeviceService['requests'] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '';
    requests.push({ path, authorization: req.headers.authorization });
    res.setHeader('content-type', 'application/json');
    if (path.includes('/boom')) {
      res.statusCode = 500;
      res.end('{"statusCode":500}');
      return;
    }
    const record = records.get(path);
    res.statusCode = record ? 200 : 404;
    res.end(JSON.stringify(record ?? { statusCode: 404, message: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    records,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
