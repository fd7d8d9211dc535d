/** LV1 system admin, LV2 workspace admin, LV3 group admin, LV4 user, LV5 guest. */
export type Level = 1 | 2 | 3 | 4 | 5;

/** Who is calling, as the verified token says. */
export type Principal = {
  sub: string;
  /** The token's workspace; LV1 tokens may carry none. */
  workspace: string | null;
  level: Level;
  groups: string[];
  email: string | null;
};

/** LV1: everything in every workspace (CONTRACT §2). */
export const isSystemAdmin = (p: Principal) => p.level === 1;

/** LV1–LV2: everything inside the workspace (quotas, the audit feed, dead letters, workspace-wide blackouts). */
export const isWorkspaceAdmin = (p: Principal) => p.level <= 2;

/** LV1–LV3: manage resources, see and cancel every booking of their workspace. */
export const isAdmin = (p: Principal) => p.level <= 3;

/** LV3 administers the resources of its groups only. */
export const isGroupAdmin = (p: Principal) => p.level === 3;

/** LV4–LV5 see and change only their own bookings. */
export const seesOwnBookingsOnly = (p: Principal) => p.level >= 4;

/** LV5 reads and books nothing of its own. */
export const isGuest = (p: Principal) => p.level === 5;

/**
 * Whom a search judges the bookings it tries as made by: the caller, but a guest (LV5), who cannot
 * book, as a user (LV4) — the search skips what depends on the caller (contract §16).
 */
export const searchingAs = (p: Principal): Principal => (isGuest(p) ? { ...p, level: 4 } : p);

/** Whether an admin's rights reach a resource of `groupId`: LV1–LV2 always, LV3 in its groups. */
export const administersGroup = (p: Principal, groupId: string | null) =>
  isWorkspaceAdmin(p) || (isGroupAdmin(p) && groupId !== null && p.groups.includes(groupId));

/** A record of another workspace is invisible to everybody but LV1. */
export const canSeeWorkspace = (p: Principal, workspace: string) => isSystemAdmin(p) || p.workspace === workspace;
