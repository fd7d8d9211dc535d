import { expect } from 'chai';
import type { TestServer } from '../../support/test-server.js';

export type CallbackAnswer = { status: number; body: any; headers: Headers };

/** The browser's part of a sign-in: login redirect, the provider's redirect back, the callback with the cookie. */
export async function signIn(
  server: TestServer,
  provider: string,
  tamper: (callback: URL, cookie: string) => { callback: URL; cookie: string | null } = (callback, cookie) => ({ callback, cookie }),
): Promise<CallbackAnswer & { authorizeUrl: URL; loginCookie: string }> {
  const login = await fetch(`${server.url}/auth/${provider}/login`, { redirect: 'manual' });
  expect(login.status, await login.clone().text()).to.equal(302);
  const loginCookie = login.headers.get('set-cookie')!;
  const authorizeUrl = new URL(login.headers.get('location')!);
  const atProvider = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(atProvider.status).to.equal(302);
  const sent = tamper(new URL(atProvider.headers.get('location')!), loginCookie.split(';')[0]!);
  const res = await fetch(sent.callback, { headers: sent.cookie ? { cookie: sent.cookie } : {} });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers, authorizeUrl, loginCookie };
}

export const publisherRows = (server: TestServer) =>
  server.database.db.selectFrom('publishers').select(['id', 'email', 'verified', 'oauth_provider', 'oauth_subject']).orderBy('id').execute();

export const publisherEvents = (server: TestServer) =>
  server.database.db.selectFrom('events').select(['stream_id', 'event_type', 'data']).where('stream_id', 'like', 'publisher-%').orderBy('global_position').execute();
