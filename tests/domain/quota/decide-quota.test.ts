import { expect } from 'chai';
import { decideCreateQuota, decideDeleteQuota, type CreateQuota } from '../../../src/domain/quota/decide-quota.js';
import { quotaUsageAccess } from '../../../src/domain/quota/quota-usage-access.js';
import { actor, admin, alice, now, resource, resourceUuid, workspace } from '../booking/booking-fixtures.js';
import { given } from '../booking/decider-spec.js';
import { quota } from './quota-fixtures.js';

const command = (extra: Partial<CreateQuota> = {}): CreateQuota => ({ id: 'q-1', limit: 10, unit: 'hours', per: 'week', ...extra });
const otherWorkspace = '99999999-9999-4999-8999-999999999999';

describe('deciding a quota', () => {
  it('records the quota with its defaults: the token workspace, no matchers, UTC', () => {
    const created = decideCreateQuota(command(), [], admin, now);
    expect(created.data.quota).to.deep.equal({
      id: 'q-1',
      workspace,
      resourceType: null,
      groupId: null,
      resourceIds: null,
      limit: 10,
      unit: 'hours',
      per: 'week',
      timeZone: 'UTC',
      createdBy: 'admin',
      createdAt: '2027-01-04T08:00:00Z',
    });
  });

  it('refuses a limit of 0 or less and a zone that does not exist (400 naming the field), before the level', () => {
    given(null).when(() => decideCreateQuota(command({ limit: 0 }), [], alice, now)).thenThrows('invalid_request', { errors: [{ path: '/body/limit', message: 'limit must be greater than 0' }] });
    given(null)
      .when(() => decideCreateQuota(command({ limit: 1.5, unit: 'bookings' }), [], alice, now))
      .thenThrows('invalid_request', { errors: [{ path: '/body/limit', message: 'limit of a bookings quota must be a whole number' }] });
    expect(decideCreateQuota(command({ limit: 1.5, unit: 'hours' }), [], admin, now).data.quota.limit).to.equal(1.5);
    const zone = given(null).when(() => decideCreateQuota(command({ timeZone: 'Mars/Olympus' }), [], admin, now)).thenThrows('invalid_request');
    expect(zone.details.errors![0]!.path).to.equal('/body/timeZone');
  });

  it('only LV1 and LV2 set quotas; LV2 naming another workspace answers 400 (CONTRACT §2)', () => {
    for (const level of [3, 4, 5] as const) given(null).when(() => decideCreateQuota(command(), [], actor(level), now)).thenThrows('forbidden');
    given(null).when(() => decideCreateQuota(command({ workspace: otherWorkspace }), [], admin, now)).thenThrows('invalid_request');
    expect(decideCreateQuota(command({ workspace: otherWorkspace }), [], actor(1, 'root', { workspace: null }), now).data.quota.workspace).to.equal(otherWorkspace);
  });

  it('named resources must be live registrations of the workspace (404 otherwise)', () => {
    expect(decideCreateQuota(command({ resourceIds: [resourceUuid, resourceUuid] }), [resource()], admin, now).data.quota.resourceIds).to.deep.equal([resourceUuid]);
    given(null).when(() => decideCreateQuota(command({ resourceIds: [resourceUuid] }), [], admin, now)).thenThrows('not_found');
    given(null).when(() => decideCreateQuota(command({ resourceIds: [resourceUuid] }), [resource({}, { workspace: otherWorkspace })], admin, now)).thenThrows('not_found');
    given(null).when(() => decideCreateQuota(command({ resourceIds: [resourceUuid] }), [resource({}, { removed: true })], admin, now)).thenThrows('not_found');
  });

  it('deleting: 404 for none or another workspace, 403 below LV2', () => {
    expect(decideDeleteQuota(quota(), admin, now).type).to.equal('QuotaDeleted');
    given(null).when(() => decideDeleteQuota(null, admin, now)).thenThrows('not_found');
    given(null).when(() => decideDeleteQuota(quota({ workspace: otherWorkspace }), admin, now)).thenThrows('not_found');
    given(null).when(() => decideDeleteQuota(quota(), actor(3), now)).thenThrows('forbidden');
  });

  it('usage: LV4/LV5 read only their own; admins anyone’s', () => {
    expect(quotaUsageAccess(alice, undefined)).to.equal('alice');
    expect(quotaUsageAccess(alice, 'alice')).to.equal('alice');
    expect(() => quotaUsageAccess(alice, 'bob')).to.throw('only their own');
    expect(quotaUsageAccess(admin, 'bob')).to.equal('bob');
  });
});
