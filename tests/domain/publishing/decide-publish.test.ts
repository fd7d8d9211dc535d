import { expect } from 'chai';
import { DomainError } from '../../../src/domain/domain-error.js';
import { decidePublish, type PublishState } from '../../../src/domain/publishing/decide-publish.js';
import type { PublishForm } from '../../../src/domain/publishing/publish-form.js';
import { publisherNotVerifiedMessage } from '../../../src/domain/publishing/publisher-not-verified.js';
import { given } from '../booking/decider-spec.js';

const form: PublishForm = { name: 'notes', displayName: 'Notes', version: '1.0', description: null, category: 'tools', semVer: '1.0.0' };
const verified = { id: 7, verified: true };
const state = (overrides: Partial<PublishState> = {}): PublishState => ({
  publisher: verified,
  project: { id: 3, publisherId: 7 },
  alreadySubmitted: false,
  strictOwnership: true,
  ...overrides,
});
const publish = (s: PublishState) => decidePublish(form, s);

describe('deciding an upload', () => {
  it('accepts the owner’s upload as a new application in SUBMISSION', () => {
    given(state())
      .when(publish)
      .then({ ...form, status: 'SUBMISSION', projectId: 3, publisherId: 7 });
  });

  it('refuses an unverified publisher with the contract’s words, before anything else', () => {
    const error = given(state({ publisher: { id: 7, verified: false }, project: null, alreadySubmitted: true }))
      .when(publish)
      .thenThrows('forbidden');
    expect(error.message).to.equal('Publisher is not verified. Please contact the platform administrator.');
    expect(error.message).to.equal(publisherNotVerifiedMessage);
  });

  it('answers not found when no project has that appName and appVersion', () => {
    const error = given(state({ project: null })).when(publish).thenThrows('not_found');
    expect(error.message).to.include('"notes"').and.to.include('"1.0"');
  });

  it('refuses a publisher who does not own the project', () => {
    given(state({ project: { id: 3, publisherId: 8 } })).when(publish).thenThrows('forbidden');
  });

  it('refuses a project without owner where ownership is strict, accepts it where it is not (development)', () => {
    given(state({ project: { id: 3, publisherId: null } })).when(publish).thenThrows('forbidden');
    given(state({ project: { id: 3, publisherId: null }, strictOwnership: false }))
      .when(publish)
      .then({ ...form, status: 'SUBMISSION', projectId: 3, publisherId: 7 });
  });

  it('never lets development relax the ownership of a project that has an owner', () => {
    given(state({ project: { id: 3, publisherId: 8 }, strictOwnership: false })).when(publish).thenThrows('forbidden');
  });

  it('answers a conflict when that name and version were submitted already', () => {
    expect(() => publish(state({ alreadySubmitted: true }))).to.throw(DomainError, /already been submitted/).with.property('code', 'record_conflict');
  });

  it('checks ownership before the duplicate', () => {
    given(state({ project: { id: 3, publisherId: 8 }, alreadySubmitted: true })).when(publish).thenThrows('forbidden');
  });
});
