import { Router } from 'express';
import { updateDeviceSelf } from '../../commands/device/update-device-self.js';
import type { Services } from '../../services.js';

/** PUT /device/v1/devices/self: a device replaces its own record with its API key, no user token. */
export function deviceSelfRouter(services: Services): Router {
  return Router().put('/', async (req, res) => {
    res.json(await updateDeviceSelf(services, req.get('x-api-key'), req.body));
  });
}
