import { expect } from 'chai';
import { upcastWaitlistEntry, type StoredWaitlistEntry } from '../../../src/domain/waitlist/upcast-waitlist-entry.js';

const stored = (createdBy: string): StoredWaitlistEntry => ({
  id: 'e0000000-0000-4000-8000-000000000001',
  workspace: '11111111-1111-4111-8111-111111111111',
  bookableResourceId: '22222222-2222-4222-8222-222222222222',
  resourceType: 'zone',
  resourceId: 'zone-42',
  title: 'Waiting',
  startTime: '2027-01-05T09:00:00Z',
  endTime: '2027-01-05T10:00:00Z',
  units: 1,
  bookerProfileId: 'bob',
  bookerEmail: null,
  createdBy,
  status: 'waiting',
  bookingId: null,
  policy: null,
  createdAt: '2027-01-04T07:00:00Z',
  closedAt: null,
});

describe('a waitlist entry joined before the joining principal was recorded (upcastWaitlistEntry)', () => {
  it('joined by its booker: a user (LV4) without groups', () => {
    expect(upcastWaitlistEntry(stored('bob')).joinedAs).to.deep.equal({ level: 4, groups: [] });
  });

  it('joined on another\'s behalf: the least level that may (LV3), without groups', () => {
    expect(upcastWaitlistEntry(stored('admin-1')).joinedAs).to.deep.equal({ level: 3, groups: [] });
  });

  it('an entry that records it keeps it', () => {
    expect(upcastWaitlistEntry({ ...stored('admin-1'), joinedAs: { level: 2, groups: ['g-1'] } }).joinedAs).to.deep.equal({ level: 2, groups: ['g-1'] });
  });
});
