import { expect } from 'chai';
import { upcastWaitlistEntry, type StoredWaitlistEntry } from '../../../src/domain/waitlist/upcast-waitlist-entry.js';
import { waitlistEntry } from './waitlist-fixtures.js';

/** An entry as an event written before joinedAs stored it. */
function stored(createdBy: string): StoredWaitlistEntry {
  const { joinedAs: _recorded, ...before } = waitlistEntry({ createdBy });
  return before;
}

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
