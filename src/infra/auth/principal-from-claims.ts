import { isSystemAdmin, type Level, type Principal } from '../../domain/access/principal.js';

export class AuthenticationError extends Error {}

const levelPattern = /^LV([1-5])$/;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The most privileged LVn among a string or array claim, or null when there is none. */
function levelOf(claim: unknown): Level | null {
  const values = Array.isArray(claim) ? claim : [claim];
  const levels = values
    .map((v) => (typeof v === 'string' ? levelPattern.exec(v.trim().toUpperCase())?.[1] : undefined))
    .filter((v): v is string => v !== undefined)
    .map(Number);
  return levels.length ? (Math.min(...levels) as Level) : null;
}

export function principalFromClaims(claims: Record<string, unknown>, rolesClaim: string, groupsClaim: string): Principal {
  const sub = claims.sub;
  if (typeof sub !== 'string' || sub === '') throw new AuthenticationError('token has no sub');
  const level = levelOf(claims[rolesClaim]);
  if (level === null) throw new AuthenticationError(`token carries no permission level in "${rolesClaim}"`);
  const workspace = typeof claims.workspace === 'string' && claims.workspace !== '' ? claims.workspace : null;
  if (workspace !== null && !uuidPattern.test(workspace)) throw new AuthenticationError('token workspace is not a uuid');
  const groups = claims[groupsClaim];
  const principal: Principal = {
    sub,
    workspace,
    level,
    groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [],
    email: typeof claims.email === 'string' ? claims.email : null,
  };
  // Only LV1 acts in every workspace, so only its token may carry none (CONTRACT §2).
  if (workspace === null && !isSystemAdmin(principal)) throw new AuthenticationError('token has no workspace');
  return principal;
}
