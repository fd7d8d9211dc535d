import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import {
  calendarPasswordExpiry,
  calendarPasswordListScope,
  calendarPasswordUsername,
  canManageCalendarPassword,
  type CalendarPassword,
} from '../../domain/calendar/calendar-password.js';
import { utcText } from '../../domain/booking/booking-time.js';
import { notFound } from '../../domain/domain-error.js';
import { hashCalendarPassword } from '../../infra/auth/calendar-password-hash.js';
import { newCalendarPasswordSecret, newUsernameSuffix } from '../../infra/auth/calendar-password-secret.js';
import { deleteCalendarPassword, findCalendarPassword, insertCalendarPassword, listCalendarPasswords } from '../../infra/calendar/calendar-passwords.js';
import type { Services } from '../../services.js';
import { principalOf } from '../authenticate.js';
import { keepForReplay } from '../idempotent-writes.js';
import { readSideOf } from '../route-reads.js';

const passwordJson = (password: CalendarPassword) => ({
  id: password.id,
  username: password.username,
  label: password.label,
  createdBy: password.owner.sub,
  createdAt: password.createdAt,
  expiresAt: password.expiresAt,
});

/** POST, GET and DELETE /calendar-passwords (contract §25): the credentials calendar clients sign in to /dav/ with. */
export function calendarPasswordsRouter(services: Services): Router {
  const router = Router();

  router.post('/', async (req, res) => {
    const actor = principalOf(res);
    const { label } = req.body as { label: string };
    const secret = newCalendarPasswordSecret();
    const now = services.now();
    const password: CalendarPassword = {
      id: randomUUID(),
      username: calendarPasswordUsername(actor, newUsernameSuffix()),
      label,
      owner: { ...actor, groups: [...actor.groups] },
      // Millisecond UTC text, as the row reads back: the list shows the same times.
      createdAt: utcText(now),
      expiresAt: utcText(calendarPasswordExpiry(now, services.config.calendarPasswordDays)),
    };
    await insertCalendarPassword(services.db, { ...password, passwordHash: await hashCalendarPassword(secret) });
    // A replay (Idempotency-Key) answers without the password: the service keeps none.
    keepForReplay(res, { ...passwordJson(password), password: null });
    res.status(201).json({ ...passwordJson(password), password: secret });
  });

  router.get('/', async (req, res) => {
    const query = req.query as unknown as { page?: number; limit?: number };
    const page = await listCalendarPasswords(readSideOf(res).db, calendarPasswordListScope(principalOf(res)), { page: query.page ?? 1, limit: query.limit ?? 20 });
    res.json({ ...page, data: page.data.map(passwordJson) });
  });

  router.delete('/:id', async (req, res) => {
    const password = await findCalendarPassword(services.db, req.params.id);
    if (!password || !canManageCalendarPassword(principalOf(res), password)) throw notFound('calendar password');
    if (!(await deleteCalendarPassword(services.db, password.id))) throw notFound('calendar password');
    res.status(204).end();
  });

  return router;
}
