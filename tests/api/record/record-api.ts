import type { TestResponse, TestServer } from '../../support/test-server.js';

/** A path with query parameters, each value URL-encoded as a client sends it. */
export function withQuery(path: string, ...params: [string, string][]): string {
  return params.length === 0 ? path : `${path}?${params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
}

/** A whole device (spec 2.1) with readable defaults. */
export function deviceBody(id: string, workspace: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    shortName: id.toUpperCase(),
    name: `Device ${id}`,
    type: 'sensor',
    visible: true,
    extra: { floor: 1 },
    decoder: 'lora-v2',
    extName: `ext-${id}`,
    enableAlert: false,
    timeout: 300,
    stateRef: ['temperature'],
    workspace,
    ...overrides,
  };
}

export const ids = (res: TestResponse): string[] => (res.body.data as { id: string }[]).map((r) => r.id);

/** The record events appended so far, oldest first. */
export function recordEvents(server: TestServer, kind: 'device' | 'zone') {
  return server.database.db
    .selectFrom('events')
    .select(['stream_id', 'event_type', 'data'])
    .where('stream_id', 'like', `${kind}-%`)
    .orderBy('global_position')
    .execute();
}
