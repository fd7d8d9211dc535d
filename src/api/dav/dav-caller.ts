import type { Response } from 'express';
import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../domain/access/principal.js';
import type { Executor } from '../../infra/db/database.js';
import type { Services } from '../../services.js';
import { principalOf } from '../authenticate.js';
import { readSideOf } from '../route-reads.js';

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
    user: (res.locals.davUser as string | undefined) ?? principal.sub,
    db: readSideOf(res).db,
    now: services.now(),
    addressDomain: services.config.caldavAddressDomain,
  };
}
