import { expect } from 'chai';
import type { Principal } from '../../../src/domain/access/principal.js';
import { applicationStatuses, type ApplicationStatus } from '../../../src/domain/catalog/application-status.js';
import { decideApplicationStatus } from '../../../src/domain/catalog/decide-application-status.js';
import { given } from '../booking/decider-spec.js';

const reviewer: Principal = { sub: 'admin-1', workspace: null, level: 1, groups: [], email: null };
const at = '2026-06-01T10:00:00Z';

/** Contract §10, written out pair by pair: every pair not listed is refused. */
const allowed: [ApplicationStatus, ApplicationStatus][] = [
  ['SUBMISSION', 'REVIEW'],
  ['REVIEW', 'APPROVAL'],
  ['REVIEW', 'SUBMISSION'],
  ['APPROVAL', 'PRE_RELEASE'],
  ['APPROVAL', 'REVIEW'],
  ['PRE_RELEASE', 'RELEASE'],
  ['PRE_RELEASE', 'REVIEW'],
  ['RELEASE', 'UNAVAILABLE'],
  ['UNAVAILABLE', 'REVIEW'],
  ['UNAVAILABLE', 'RELEASE'],
];
const isAllowed = (from: ApplicationStatus, to: ApplicationStatus) => allowed.some(([f, t]) => f === from && t === to);
const pairs = applicationStatuses.flatMap((from) => applicationStatuses.map((to) => [from, to] as const));

describe('moving an application between statuses', () => {
  it('covers all 36 pairs of the six statuses', () => {
    expect(pairs).to.have.length(36);
  });

  for (const [from, to] of pairs) {
    if (isAllowed(from, to)) {
      it(`${from} → ${to} is allowed and records who moved it when`, () => {
        given<ApplicationStatus>(from)
          .when((current) => decideApplicationStatus({ to, actor: reviewer, at }, current))
          .then({ from, to, by: 'admin-1', at });
      });
    } else {
      it(`${from} → ${to} is refused as an invalid transition`, () => {
        const error = given<ApplicationStatus>(from)
          .when((current) => decideApplicationStatus({ to, actor: reviewer, at }, current))
          .thenThrows('invalid_transition');
        expect(error.message).to.equal(`an application in status ${from} cannot move to ${to}`);
      });
    }
  }

  it('is for reviewers (LV1) only, even for an allowed move', () => {
    for (const level of [2, 3, 4, 5] as const) {
      given<ApplicationStatus>('SUBMISSION')
        .when((current) => decideApplicationStatus({ to: 'REVIEW', actor: { ...reviewer, level }, at }, current))
        .thenThrows('forbidden');
    }
  });
});
