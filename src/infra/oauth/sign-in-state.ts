import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { OAuthProviderName, SignInChecks } from './oauth-provider.js';

/** A sign-in between its login redirect and its callback. */
export type SignInState = SignInChecks & { provider: OAuthProviderName; expiresAt: number };

/** Seals the state into an opaque cookie value and opens it again; sealed text is unreadable and tamper-proof. */
export type SignInStateSealer = {
  seal(state: SignInState): string;
  /** The state, or null when the text was not sealed here, was altered, or has expired. */
  open(sealed: string, nowMs: number): SignInState | null;
};

/** Ten minutes to finish a sign-in at the provider. */
export const signInLifetimeMs = 10 * 60_000;

/**
 * AES-256-GCM under a key derived from the publisher token secret: any API process can finish a
 * sign-in another one started, and the PKCE verifier never travels readable.
 */
export function createSignInStateSealer(secret: string): SignInStateSealer {
  const key = Buffer.from(hkdfSync('sha256', secret, '', 'publisher sign-in state', 32));
  return {
    seal(state) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(state), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed, nowMs) {
      const bytes = Buffer.from(sealed, 'base64url');
      if (bytes.length < 29) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
        decipher.setAuthTag(bytes.subarray(12, 28));
        const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
        const state = JSON.parse(text) as SignInState;
        return state.expiresAt > nowMs ? state : null;
      } catch {
        return null;
      }
    },
  };
}
