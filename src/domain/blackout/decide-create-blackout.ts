import { Temporal } from 'temporal-polyfill';
import { administersGroup, isAdmin, isWorkspaceAdmin, type Principal } from '../access/principal.js';
import { utcText } from '../booking/booking-time.js';
import { forbidden, invalidRequest, notFound } from '../domain-error.js';
import type { Resource } from '../resource/resource.js';
import type { BlackoutCreated } from './blackout-events.js';

/** The longest blackout (contract §17). */
export const maxBlackoutDays = 366;

export type CreateBlackout = {
  id: string;
  workspace: string;
  /** Registration ids; null: the whole workspace. */
  resourceIds: readonly string[] | null;
  from: Temporal.Instant;
  to: Temporal.Instant;
  reason: string;
};

export type CreateBlackoutState = {
  /** The live resources of the workspace among those named (none when the blackout names none). */
  resources: readonly Resource[];
};

/**
 * Order of refusals: 400 times and reason → 403 level (LV1–LV3; the whole workspace LV1–LV2) →
 * 404 a named resource unknown in the workspace → 403 an LV3 naming a resource outside its groups.
 */
export function decideCreateBlackout(command: CreateBlackout, state: CreateBlackoutState, actor: Principal, now: Temporal.Instant): BlackoutCreated {
  if (Temporal.Instant.compare(command.to, command.from) <= 0) throw invalidRequest('to must be after from', '/body/to');
  if (command.from.until(command.to).total('hours') > maxBlackoutDays * 24) {
    throw invalidRequest(`a blackout lasts at most ${maxBlackoutDays} days`, '/body/to');
  }
  const reason = command.reason.trim();
  if (reason === '') throw invalidRequest('reason must not be empty', '/body/reason');
  if (!isAdmin(actor)) throw forbidden('only LV1–LV3 may create blackouts');
  if (command.resourceIds === null && !isWorkspaceAdmin(actor)) throw forbidden('a blackout of the whole workspace needs LV1 or LV2; name the resources of your groups');
  const resourceIds = command.resourceIds === null ? null : [...new Set(command.resourceIds.map((id) => id.toLowerCase()))];
  const found = new Map(state.resources.filter((r) => !r.removed && r.workspace === command.workspace).map((r) => [r.id, r]));
  for (const id of resourceIds ?? []) {
    if (!found.has(id)) throw notFound(`resource ${id}`);
  }
  const outside = (resourceIds ?? []).find((id) => !administersGroup(actor, found.get(id)!.groupId));
  if (outside) throw forbidden(`resource ${outside} is outside your groups`);
  const at = utcText(now);
  return {
    type: 'BlackoutCreated',
    data: {
      blackout: {
        id: command.id,
        workspace: command.workspace,
        resourceIds,
        from: utcText(command.from),
        to: utcText(command.to),
        reason,
        createdBy: actor.sub,
        createdAt: at,
      },
      by: actor.sub,
      at,
    },
  };
}
