import type { Response } from 'express';

/*
 * What davAuthentication leaves in res.locals besides the principal: `davUser`, the name the
 * caller's DAV principal goes by (a calendar password's username, else the token's `sub`), and
 * `calendarPassword`, the username of the calendar password it signed in with (none for a bearer).
 */

export const davUserOf = (res: Response): string | undefined => res.locals.davUser as string | undefined;

/** The username of the calendar password the caller signed in with; undefined for a bearer token or outside /dav/. */
export const calendarPasswordOfCaller = (res: Response): string | undefined => res.locals.calendarPassword as string | undefined;
