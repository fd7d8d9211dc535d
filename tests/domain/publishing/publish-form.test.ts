import { expect } from 'chai';
import { DomainError } from '../../../src/domain/domain-error.js';
import { isPublishFormField, publishFormOf } from '../../../src/domain/publishing/publish-form.js';

const complete = { name: 'notes', displayName: 'Notes', version: '1.0' };
const formOf = (fields: Record<string, string>) => publishFormOf(new Map(Object.entries(fields)));

function refusalOf(fields: Record<string, string>): DomainError {
  try {
    formOf(fields);
  } catch (error) {
    expect(error).to.be.instanceOf(DomainError);
    return error as DomainError;
  }
  return expect.fail('expected a refusal');
}

describe('the upload form', () => {
  it('takes the required fields and leaves the optional ones null', () => {
    expect(formOf(complete)).to.deep.equal({ ...complete, description: null, category: null, semVer: null });
  });

  it('keeps the optional fields that are given', () => {
    const all = { ...complete, description: 'Takes notes', category: 'tools', semVer: '1.0.0-beta.1' };
    expect(formOf(all)).to.deep.equal(all);
  });

  for (const field of ['name', 'displayName', 'version']) {
    it(`refuses a form without ${field}, naming it`, () => {
      const { [field]: _left, ...rest } = complete as Record<string, string>;
      const error = refusalOf(rest);
      expect(error.code).to.equal('invalid_request');
      expect(error.message).to.equal(`${field} is required`);
      expect(error.details.errors).to.deep.equal([{ path: `/body/${field}`, message: `${field} is required` }]);
    });

    it(`refuses a blank ${field}`, () => {
      expect(refusalOf({ ...complete, [field]: '  ' }).message).to.equal(`${field} is required`);
    });
  }

  it('refuses a field longer than the catalog keeps', () => {
    expect(refusalOf({ ...complete, name: 'n'.repeat(257) }).message).to.equal('name must be at most 256 characters');
    expect(formOf({ ...complete, name: 'n'.repeat(256) }).name).to.have.length(256);
  });

  it('knows its fields and nothing else', () => {
    expect(['name', 'displayName', 'version', 'description', 'category', 'semVer'].every(isPublishFormField)).to.equal(true);
    expect(isPublishFormField('status')).to.equal(false);
    expect(isPublishFormField('file')).to.equal(false);
    expect(isPublishFormField('__proto__')).to.equal(false);
  });
});
