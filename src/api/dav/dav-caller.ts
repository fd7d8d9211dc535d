import type { Response } from 'express';
import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../domain/access/principal.js';
import type { Executor } from '../../infra/db/database.js';
import type { Services } from '../../services.js';
import { principalOf } from '../authenticate.js';
import { readSideOf } from '../route-reads.js';

/*
 * What davAuthentication leaves in res.locals besides the principal: `davUser`, the name the
 * caller's DAV principal goes by (a calendar password's username, else the token's `sub`), and
 * `calendarPassword`, the username of the calendar password it signed in with (none for a bearer).
 */

export const davUserOf = (res: Response): string | undefined => res.locals.davUser as string | undefined;

/** The username of the calendar password the caller signed in with; undefined for a bearer token or outside /dav/. */
export const calendarPasswordOfCaller = (res: Response): string | undefined => res.locals.calendarPassword as string | undefined;

/** Who asks under /dav/, where it reads and when: what every answer there is a function of. */
export type DavCaller = {
  principal: Principal;
  /** The caller's principal path segment (davAuthentication's res.locals.davUser). */
  user: string;
  db: Executor;
  now: Temporal.Instant;
  /** CALDAV_ADDRESS_DOMAIN. */
  addressDomain: string;
};

export function davCallerOf(res: Response, services: Services): DavCaller {
  const principal = principalOf(res);
  return {
    principal,
    user: davUserOf(res) ?? principal.sub,
    db: readSideOf(res).db,
    now: services.now(),
    addressDomain: services.config.caldavAddressDomain,
  };
}
