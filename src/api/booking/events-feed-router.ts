import { Router } from 'express';
import type { Principal } from '../../domain/access/principal.js';
import { bookingEventTypes, publishedEventName } from '../../domain/booking/booking-events.js';
import { forbidden, invalidRequest } from '../../domain/domain-error.js';
import { readAuditFeed } from '../../projections/audit/read-audit-feed.js';
import { toEventEnvelope } from '../../domain/booking/event-envelope.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';

type FeedQuery = { after?: string | number; limit?: string | number; event?: string | string[]; workspace?: string };

const typeOfName = new Map<string, string>(Object.entries(publishedEventName).map(([type, name]) => [name, type]));

/** LV1 reads every workspace (or the one it names), LV2 its own; nobody else reads the feed. */
function feedWorkspace(actor: Principal, asked: string | undefined): string | undefined {
  if (actor.level === 1) return asked;
  if (actor.level === 2 && (asked === undefined || asked === actor.workspace)) return actor.workspace!;
  throw forbidden(actor.level === 2 ? "a workspace admin reads only its own workspace's feed" : 'the audit feed needs permission level LV1 or LV2');
}

/** GET /events: the audit feed of contract §13, in log order, each event once across pages. */
export function eventsFeedRouter(services: Services): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    const query = req.query as FeedQuery;
    const workspace = feedWorkspace(principalOf(res), query.workspace);
    const names = query.event === undefined ? [] : ([] as string[]).concat(query.event);
    const types = names.length === 0 ? [...bookingEventTypes] : names.map((name) => typeOfName.get(name) ?? name);
    const after = Number(query.after ?? 0);
    const page = await readAuditFeed(services.db, { after, limit: Number(query.limit ?? 100), types, workspace });
    if (!page) throw invalidRequest(`after=${after} is no position of the log; continue from a "next" this feed answered`, '/query/after');
    res.json({
      events: page.events.flatMap((recorded) => {
        const envelope = toEventEnvelope(recorded);
        return envelope ? [envelope] : [];
      }),
      next: page.next,
    });
  });

  return router;
}
