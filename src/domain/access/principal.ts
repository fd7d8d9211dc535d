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

/** LV1–LV3: manage resources, see and cancel every booking of their workspace. */
export const isAdmin = (p: Principal) => p.level <= 3;

/** A record of another workspace is invisible to everybody but LV1. */
export const canSeeWorkspace = (p: Principal, workspace: string) => p.level === 1 || p.workspace === workspace;
