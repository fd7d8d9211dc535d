import { expect } from 'chai';
import { createSignInStateSealer, signInLifetimeMs, type SignInState } from '../../../src/infra/oauth/sign-in-state.js';

// A fixed clock: the state must not expire while a slow run is still on its way to these tests.
const now = Date.parse('2027-01-05T09:00:00Z');
const sealer = createSignInStateSealer('a-publisher-token-secret-for-tests-0123456789');
const state: SignInState = {
  provider: 'oidc',
  state: 'st-1',
  nonce: 'n-1',
  codeVerifier: 'verifier-that-must-stay-secret',
  redirectUri: 'https://apps.example.com/auth/oidc/callback',
  expiresAt: now + signInLifetimeMs,
};

describe('the sign-in state cookie', () => {
  it('opens what it sealed, until it expires', () => {
    const sealed = sealer.seal(state);
    expect(sealer.open(sealed, now)).to.deep.equal(state);
    expect(sealer.open(sealed, state.expiresAt)).to.equal(null);
  });

  it('hides the PKCE verifier and the nonce', () => {
    const text = Buffer.from(sealer.seal(state), 'base64url').toString('latin1');
    expect(text).not.to.include('verifier-that-must-stay-secret');
    expect(text).not.to.include('n-1');
  });

  it('refuses altered text, text sealed under another secret, and garbage', () => {
    const sealed = Buffer.from(sealer.seal(state), 'base64url');
    for (let i = 0; i < sealed.length; i += 7) {
      const altered = Buffer.from(sealed);
      altered[i] = altered[i]! ^ 1;
      expect(sealer.open(altered.toString('base64url'), now), `byte ${i}`).to.equal(null);
    }
    const other = createSignInStateSealer('another-secret-of-at-least-32-bytes-long');
    expect(sealer.open(other.seal(state), now)).to.equal(null);
    for (const garbage of ['', 'x', 'not base64 at all!', 'a'.repeat(100)]) expect(sealer.open(garbage, now)).to.equal(null);
  });
});
