import { workspaceFilter } from '../../domain/access/workspace-scope.js';
import { Router } from 'express';
import { isWorkspaceAdmin, type Principal } from '../../domain/access/principal.js';
import { forbidden, invalidRequest } from '../../domain/domain-error.js';
import { publishedEventNames } from '../../infra/event-store/published-event-condition.js';
import { readAuditFeedJson } from '../../projections/audit/read-audit-feed.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { readSideOf } from '../route-reads.js';

type FeedQuery = { after?: string | number; limit?: string | number; event?: string | string[]; workspace?: string };

/** LV1 reads every workspace (or the one it names), LV2 its own; nobody else reads the feed. */
function feedWorkspace(actor: Principal, asked: string | undefined): string | undefined {
  const workspace = workspaceFilter(actor, asked, '/query/workspace');
  if (!isWorkspaceAdmin(actor)) throw forbidden('the audit feed needs permission level LV1 or LV2');
  return workspace;
}

/** The published names asked for; every one when none is. */
function feedNames(asked: string | string[] | undefined): readonly string[] {
  const names = asked === undefined ? [] : ([] as string[]).concat(asked);
  const unknown = names.find((name) => !publishedEventNames.includes(name));
  if (unknown !== undefined) throw invalidRequest(`event=${unknown} is no published event name`, '/query/event');
  return names.length === 0 ? publishedEventNames : names;
}

/** GET /events: the audit feed of contract §13, every published event in log order, each once across pages. */
export function eventsFeedRouter(services: Services): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    const query = req.query as FeedQuery;
    const workspace = feedWorkspace(principalOf(res), query.workspace);
    const names = feedNames(query.event);
    const after = Number(query.after ?? 0);
    const page = await readAuditFeedJson(readSideOf(res).logReader, { after, limit: Number(query.limit ?? 100), names, workspace });
    if (!page) throw invalidRequest(`after=${after} is no position of the log; continue from a "next" this feed answered`, '/query/after');
    res.type('json').send(page);
  });

  return router;
}
