import { Router } from 'express';
import { devices } from '../../commands/device/device-records.js';
import { issueDeviceApiKey } from '../../commands/device/issue-device-api-key.js';
import { moveDevice } from '../../commands/device/move-device.js';
import { exportQueryOf } from '../../domain/record/export-query.js';
import { parseListQuery } from '../../domain/record/parse-record-query.js';
import { scopeOf } from '../../domain/record/record-access.js';
import { fieldSpec } from '../../domain/record/resolve-field.js';
import { deviceKind } from '../../projections/record/device-kind.js';
import { selectRecordPage } from '../../projections/record/select-records.js';
import { principalOf } from '../authenticate.js';
import type { Services } from '../../services.js';
import { recordRouter } from './record-router.js';
import { recordIdOf, requestedWorkspaceOf } from './record-request.js';

type ExportBody = { excludeFields: string[]; req?: unknown };
type MoveBody = { workspace: { id: string } };

/** /device/v1/devices: the generic record operations plus export, move and key issuing. */
export function devicesRouter(services: Services): Router {
  const router = Router();
  const { kind } = devices;

  router.post('/export', async (req, res) => {
    const actor = principalOf(res);
    const { excludeFields, req: request } = req.body as ExportBody;
    for (const field of excludeFields) fieldSpec(kind, field, 'excludeFields');
    const page = await selectRecordPage(services.db, kind, scopeOf(actor, requestedWorkspaceOf(req)), parseListQuery(kind, exportQueryOf(request)));
    const without = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).filter(([name]) => !excludeFields.includes(name)));
    res.json({ ...page, data: page.data.map(without) });
  });

  router.post('/:id/workspace', async (req, res) => {
    const actor = principalOf(res);
    const { workspace } = req.body as MoveBody;
    res.json(await moveDevice(services, actor, scopeOf(actor, requestedWorkspaceOf(req)), String(recordIdOf(deviceKind, req)), workspace.id.toLowerCase()));
  });

  router.post('/:id/apikey', async (req, res) => {
    const actor = principalOf(res);
    res.status(201).json(await issueDeviceApiKey(services, actor, scopeOf(actor, requestedWorkspaceOf(req)), String(recordIdOf(deviceKind, req))));
  });

  router.use(recordRouter(services, devices));
  return router;
}
