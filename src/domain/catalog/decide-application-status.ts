import { isSystemAdmin, type Principal } from '../access/principal.js';
import { forbidden, invalidTransition } from '../domain-error.js';
import { statusMoves, type ApplicationStatus } from './application-status.js';

export type ChangeApplicationStatus = { to: ApplicationStatus; actor: Principal; at: string };

export type ApplicationStatusMove = { from: ApplicationStatus; to: ApplicationStatus; by: string; at: string };

/** Spec 5.3 and contract §10: reviewers (LV1) move an application along the allowed moves only; staying put is no move. */
export function decideApplicationStatus(command: ChangeApplicationStatus, current: ApplicationStatus): ApplicationStatusMove {
  const { to, actor, at } = command;
  if (!isSystemAdmin(actor)) throw forbidden(`LV${actor.level} may not change the status of an application: reviewers are LV1`);
  if (!statusMoves[current].includes(to)) throw invalidTransition(`an application in status ${current} cannot move to ${to}`);
  return { from: current, to, by: actor.sub, at };
}
