import { seesOwnBookingsOnly, type Principal } from '../access/principal.js';
import { forbidden } from '../domain-error.js';

/** Whose usage the caller reads: its own by default; LV4/LV5 no one else's (403). */
export function quotaUsageAccess(actor: Principal, asked: string | undefined): string {
  const booker = asked ?? actor.sub;
  if (seesOwnBookingsOnly(actor) && booker !== actor.sub) throw forbidden('LV4 and LV5 read only their own quota usage');
  return booker;
}
