import { Router } from 'express';
import type { CommandContext } from '../../commands/command-context.js';
import { changeRecord } from '../../commands/records/change-record.js';
import { createRecords } from '../../commands/records/create-records.js';
import { deleteRecord } from '../../commands/records/delete-record.js';
import { locateRecord } from '../../commands/records/locate-record.js';
import type { RecordKindConfig } from '../../commands/records/record-kind-config.js';
import { forbidden, invalidRequest } from '../../domain/domain-error.js';
import { parseListQuery, parseReadQuery } from '../../domain/record/parse-record-query.js';
import { readScopeOf, scopeOf } from '../../domain/record/record-access.js';
import { selectRecordPage } from '../../projections/record/select-records.js';
import { principalOf } from '../authenticate.js';
import { recordQueryOf } from './record-query-string.js';
import { recordIdOf, requestedWorkspaceOf } from './record-request.js';
import { readDbOf } from '../route-reads.js';

export const maxBulk = 100;

/**
 * The record operations of one kind (contract §10): list, read, create one, create many, update,
 * replace, delete. Mount it behind authenticate; the kind's config decides everything else.
 */
export function recordRouter(ctx: CommandContext, config: RecordKindConfig): Router {
  const { kind } = config;
  const router = Router();

  const reader = (res: Parameters<typeof principalOf>[0]) => {
    const actor = principalOf(res);
    if (!config.access.read(actor)) throw forbidden(`LV${actor.level} may not read ${kind.label} records`);
    return actor;
  };

  router.get('/', async (req, res) => {
    const actor = reader(res);
    const query = parseListQuery(kind, recordQueryOf(req));
    res.json(await selectRecordPage(readDbOf(res, ctx.db), kind, readScopeOf(kind, scopeOf(actor, requestedWorkspaceOf(req))), query));
  });

  router.post('/bulk', async (req, res) => {
    const bulk = (req.body as { bulk?: unknown } | undefined)?.bulk;
    if (!Array.isArray(bulk) || bulk.length === 0 || bulk.length > maxBulk) {
      throw invalidRequest(`bulk must be an array of 1 to ${maxBulk} records`, '/body/bulk');
    }
    res.status(201).json(await createRecords(ctx, config, principalOf(res), requestedWorkspaceOf(req), bulk, true));
  });

  router.post('/', async (req, res) => {
    const [created] = await createRecords(ctx, config, principalOf(res), requestedWorkspaceOf(req), [req.body], false);
    res.status(201).json(created);
  });

  router.get('/:id', async (req, res) => {
    const actor = reader(res);
    const query = parseReadQuery(kind, recordQueryOf(req));
    res.json(await locateRecord(readDbOf(res, ctx.db), kind, readScopeOf(kind, scopeOf(actor, requestedWorkspaceOf(req))), recordIdOf(kind, req), query));
  });

  for (const [method, mode] of [['patch', 'update'], ['put', 'replace']] as const) {
    router[method]('/:id', async (req, res) => {
      const actor = principalOf(res);
      const scope = scopeOf(actor, requestedWorkspaceOf(req));
      res.json(await changeRecord(ctx, config, actor, scope, recordIdOf(kind, req), req.body, mode));
    });
  }

  router.delete('/:id', async (req, res) => {
    const actor = principalOf(res);
    res.json(await deleteRecord(ctx, config, actor, scopeOf(actor, requestedWorkspaceOf(req)), recordIdOf(kind, req)));
  });

  return router;
}
