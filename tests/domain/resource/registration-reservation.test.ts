import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { DomainError } from '../../../src/domain/domain-error.js';
import {
  decideReserveRegistration,
  evolveReservation,
  registrationStreamId,
  type RegistrationKey,
} from '../../../src/domain/resource/registration-reservation.js';

const key: RegistrationKey = { workspace: 'w-1', resourceType: 'zone', resourceId: 'zone-42' };
const now = Temporal.Instant.from('2027-01-04T08:00:00Z');
const held = (at = now.subtract({ seconds: 5 })) => ({ resource: 'old-resource', at: at.toString() });

describe('registration reservation', () => {
  it('reserves a free key for the new resource', () => {
    expect(decideReserveRegistration(key, 'new-resource', { reservation: null, holder: 'absent' }, now)).to.deep.equal({
      type: 'RegistrationReserved',
      data: { ...key, resource: 'new-resource', at: now.toString() },
    });
  });

  it('refuses a key whose resource is registered, or is being written right now', () => {
    for (const holder of ['registered', 'absent'] as const) {
      expect(() => decideReserveRegistration(key, 'new-resource', { reservation: held(), holder }, now))
        .to.throw(DomainError, 'already registered')
        .with.property('code', 'already_registered');
    }
  });

  it('takes over a key whose resource was removed, or never written a minute after it was reserved', () => {
    expect(decideReserveRegistration(key, 'new-resource', { reservation: held(), holder: 'removed' }, now).data.resource).to.equal('new-resource');
    const abandoned = held(now.subtract({ minutes: 1 }));
    expect(decideReserveRegistration(key, 'new-resource', { reservation: abandoned, holder: 'absent' }, now).data.resource).to.equal('new-resource');
  });

  it('frees the key when the reservation is given back', () => {
    const reserved = evolveReservation(null, { type: 'RegistrationReserved', data: { ...key, resource: 'r', at: now.toString() } });
    expect(reserved).to.deep.equal({ resource: 'r', at: now.toString() });
    expect(evolveReservation(reserved, { type: 'RegistrationReleased', data: { ...key, resource: 'r', at: now.toString() } })).to.equal(null);
  });

  it('names one stream per key, which no workspace or id can make collide', () => {
    expect(registrationStreamId(key)).to.equal('registration-w-1/zone/zone-42');
    expect(registrationStreamId({ ...key, workspace: 'a/zone/b' })).to.not.equal(registrationStreamId({ ...key, workspace: 'a', resourceId: 'b/zone/zone-42' }));
  });
});
