import { expect } from 'chai';
import { decideRename } from '../../../src/domain/resource/decide-resource.js';
import { evolveResource } from '../../../src/domain/resource/evolve-resource.js';
import { now, resource } from '../booking/booking-fixtures.js';
import { given } from '../booking/decider-spec.js';

describe('a resource follows the name of its zone or device', () => {
  it('takes a new name as an ordinary resource update', () => {
    const { removed: _removed, ...record } = resource();
    given(resource()).when((state) => decideRename(state, 'Boardroom 2', 'system', now)).then({
      type: 'ResourceUpdated',
      data: {
        id: resource().id,
        changes: { resourceName: 'Boardroom 2' },
        by: 'system',
        at: now.toString(),
        resource: { ...record, resourceName: 'Boardroom 2', updatedAt: now.toString() },
      },
    });
  });

  it('changes nothing when the name is the same, or the resource is removed', () => {
    given(resource()).when((state) => decideRename(state, 'Board room', 'system', now)).thenNothing();
    given(resource({}, { removed: true })).when((state) => decideRename(state, 'Elsewhere', 'system', now)).thenNothing();
  });

  it('keeps everything else of the resource, inactive ones included', () => {
    const inactive = resource({}, { isActive: false });
    const [renamed] = decideRename(inactive, 'Boardroom 2', 'admin', now);
    expect(evolveResource(inactive, renamed!)).to.deep.equal({ ...inactive, resourceName: 'Boardroom 2', updatedAt: now.toString() });
  });
});
