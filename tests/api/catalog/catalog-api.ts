import { expect } from 'chai';
import type { ApplicationStatus } from '../../../src/domain/catalog/application-status.js';
import type { TestResponse, TestServer } from '../../support/test-server.js';

export const C = '/catalog/v1';

/** The route from SUBMISSION to each status along allowed moves. */
export const routeTo: Record<ApplicationStatus, ApplicationStatus[]> = {
  SUBMISSION: [],
  REVIEW: ['REVIEW'],
  APPROVAL: ['REVIEW', 'APPROVAL'],
  PRE_RELEASE: ['REVIEW', 'APPROVAL', 'PRE_RELEASE'],
  RELEASE: ['REVIEW', 'APPROVAL', 'PRE_RELEASE', 'RELEASE'],
  UNAVAILABLE: ['REVIEW', 'APPROVAL', 'PRE_RELEASE', 'RELEASE', 'UNAVAILABLE'],
};

export const ids = (res: TestResponse): number[] => (res.body.data as { id: number }[]).map((r) => r.id);

/** Catalog requests as a system admin (LV1, no workspace) unless another token is given. */
export function catalogClient(server: TestServer) {
  const admin = server.token({ level: 'LV1', workspace: null, sub: 'admin-1' });
  const call = (method: string, path: string, body?: unknown, token = admin, headers?: Record<string, string>) =>
    server.request(method, `${C}${path}`, { body, token, headers });
  const created = async (path: string, body: unknown): Promise<Record<string, any>> => {
    const res = await call('POST', path, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body;
  };
  return {
    admin,
    call,
    publisher: (n: string, extra: Record<string, unknown> = {}) => created('/publishers', { email: `${n}@example.com`, name: `Studio ${n}`, ...extra }),
    project: (appName: string, appVersion: string, publisherId: number | null, extra: Record<string, unknown> = {}) =>
      created('/projects', { appName, appVersion, publisherId, ...extra }),
    application: (name: string, version: string, projectId: number, extra: Record<string, unknown> = {}) =>
      created('/applications', { name, displayName: `App ${name}`, version, projectId, ...extra }),
    /** Moves an application along allowed moves to `status`. */
    async moveTo(id: number, status: ApplicationStatus): Promise<void> {
      for (const step of routeTo[status]) {
        const res = await call('PATCH', `/applications/${id}/status`, { status: step });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
    },
  };
}

/** The events of one kind's streams, oldest first. */
export function catalogEvents(server: TestServer, kind: string) {
  return server.database.db
    .selectFrom('events')
    .select(['stream_id', 'event_type', 'data'])
    .where('stream_id', 'like', `${kind}-%`)
    .orderBy('global_position')
    .execute();
}
