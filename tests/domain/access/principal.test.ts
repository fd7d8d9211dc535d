import { expect } from 'chai';
import { administersGroup, canSeeWorkspace, isAdmin, isGroupAdmin, isGuest, isSystemAdmin, isWorkspaceAdmin, searchingAs, seesOwnBookingsOnly, type Level, type Principal } from '../../../src/domain/access/principal.js';

const principal = (level: Level, groups: string[] = []): Principal => ({ sub: 'u', workspace: 'w-1', level, groups, email: null });

describe('the named access rules of CONTRACT §2', () => {
  it('gives each level its rights', () => {
    const table = ([1, 2, 3, 4, 5] as const).map((level) => {
      const p = principal(level);
      return [isSystemAdmin(p), isWorkspaceAdmin(p), isAdmin(p), isGroupAdmin(p), seesOwnBookingsOnly(p), isGuest(p)];
    });
    expect(table).to.deep.equal([
      [true, true, true, false, false, false],
      [false, true, true, false, false, false],
      [false, false, true, true, false, false],
      [false, false, false, false, true, false],
      [false, false, false, false, true, true],
    ]);
  });

  it('lets LV1–LV2 administer every group, LV3 only its own, LV4–LV5 none', () => {
    expect(administersGroup(principal(2), null)).to.equal(true);
    expect(administersGroup(principal(3, ['g-1']), 'g-1')).to.equal(true);
    expect(administersGroup(principal(3, ['g-1']), 'g-2')).to.equal(false);
    expect(administersGroup(principal(3, ['g-1']), null)).to.equal(false);
    expect(administersGroup(principal(4, ['g-1']), 'g-1')).to.equal(false);
  });

  it('shows another workspace to LV1 only', () => {
    expect(canSeeWorkspace(principal(1), 'w-2')).to.equal(true);
    expect(canSeeWorkspace(principal(2), 'w-2')).to.equal(false);
    expect(canSeeWorkspace(principal(5), 'w-1')).to.equal(true);
  });

  it('lets a search judge a guest as a user, everybody else as themselves', () => {
    expect(searchingAs(principal(5, ['g-1']))).to.deep.equal(principal(4, ['g-1']));
    for (const level of [1, 2, 3, 4] as const) expect(searchingAs(principal(level))).to.deep.equal(principal(level));
  });
});
