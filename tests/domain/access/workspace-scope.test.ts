import { expect } from 'chai';
import type { Level, Principal } from '../../../src/domain/access/principal.js';
import { workspaceFilter, workspaceScope } from '../../../src/domain/access/workspace-scope.js';
import { DomainError } from '../../../src/domain/domain-error.js';

const own = '6f1c2f4e-8a4b-4c1e-9a57-3b2f0e1d9c11';
const foreign = '0b9e3c57-1f0c-4d8a-9d55-2a41c3f7e0aa';
const principal = (level: Level, workspace: string | null = own): Principal => ({ sub: 'u', workspace, level, groups: [], email: null });

/** The 400 of CONTRACT §2, naming where `workspace` was given. */
function refusal(act: () => unknown): DomainError {
  try {
    act();
  } catch (error) {
    expect(error).to.be.instanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a refusal');
}

describe('workspaceScope: the workspace a /booking/v1 request acts in (CONTRACT §2)', () => {
  for (const level of [2, 3, 4, 5] as const) {
    it(`LV${level} acts in its token's workspace, named or not (any case); another one answers 400 naming workspace`, () => {
      expect(workspaceScope(principal(level), undefined, '/query/workspace')).to.equal(own);
      expect(workspaceScope(principal(level), own.toUpperCase(), '/query/workspace')).to.equal(own);
      const error = refusal(() => workspaceScope(principal(level), foreign, '/body/workspace'));
      expect(error.code).to.equal('invalid_request');
      expect(error.message).to.contain('workspace');
      expect(error.details.errors?.[0]?.path).to.equal('/body/workspace');
    });
  }

  it('LV1 acts in the workspace it names, else its token\'s; with neither it answers 400', () => {
    expect(workspaceScope(principal(1), foreign.toUpperCase(), '/query/workspace')).to.equal(foreign);
    expect(workspaceScope(principal(1), undefined, '/query/workspace')).to.equal(own);
    expect(refusal(() => workspaceScope(principal(1, null), undefined, '/query/workspace')).code).to.equal('invalid_request');
  });

  it('workspaceFilter leaves an LV1 reader every workspace when it names none, and rules the others as workspaceScope', () => {
    expect(workspaceFilter(principal(1, null), undefined, '/query/workspace')).to.equal(undefined);
    expect(workspaceFilter(principal(1), foreign, '/query/workspace')).to.equal(foreign);
    expect(workspaceFilter(principal(2), undefined, '/query/workspace')).to.equal(own);
    expect(refusal(() => workspaceFilter(principal(4), foreign, '/query/workspace')).code).to.equal('invalid_request');
  });
});
