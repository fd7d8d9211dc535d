/** A username and password as HTTP Basic (RFC 7617) carries them. */
export type BasicCredentials = { username: string; password: string };

/**
 * The credentials of an `Authorization: Basic …` header: undefined when the header is absent or of
 * another scheme, null when it is Basic but not base64 of `username:password` in UTF-8 (the
 * username ends at the first colon, as RFC 7617 says; the password may hold colons).
 */
export function basicCredentialsOf(authorization: string | undefined): BasicCredentials | null | undefined {
  const match = /^Basic(?:\s+(\S*))?\s*$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const encoded = match[1] ?? '';
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return null;
  const decoded = new TextDecoder('utf-8', { fatal: true });
  let text: string;
  try {
    text = decoded.decode(Buffer.from(encoded, 'base64'));
  } catch {
    return null;
  }
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}
