import { expect } from 'chai';
import { basicCredentialsOf } from '../../../src/api/dav/basic-credentials.js';

const basic = (text: string) => `Basic ${Buffer.from(text, 'utf8').toString('base64')}`;

describe('HTTP Basic credentials (RFC 7617)', () => {
  it('split at the first colon: the password may hold colons, the username none', () => {
    expect(basicCredentialsOf(basic('alice.ws.abc:wbdav_x:y'))).to.deep.equal({ username: 'alice.ws.abc', password: 'wbdav_x:y' });
    expect(basicCredentialsOf(basic('ü:pässword'))).to.deep.equal({ username: 'ü', password: 'pässword' });
    expect(basicCredentialsOf(`basic   ${Buffer.from('a:b').toString('base64')}`)).to.deep.equal({ username: 'a', password: 'b' });
  });

  it('are absent for no header and for another scheme', () => {
    expect(basicCredentialsOf(undefined)).to.equal(undefined);
    expect(basicCredentialsOf('Bearer abc')).to.equal(undefined);
    expect(basicCredentialsOf('Basically abc')).to.equal(undefined);
  });

  it('are malformed without a colon, without base64, or not UTF-8', () => {
    expect(basicCredentialsOf(basic('no-colon'))).to.equal(null);
    expect(basicCredentialsOf('Basic')).to.equal(null);
    expect(basicCredentialsOf('Basic !!!!')).to.equal(null);
    expect(basicCredentialsOf('Basic YWJj=')).to.equal(null);
    expect(basicCredentialsOf(`Basic ${Buffer.from([0x61, 0x3a, 0xff, 0xfe]).toString('base64')}`)).to.equal(null);
  });
});
