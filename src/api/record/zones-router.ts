import type { Router } from 'express';
import { zones } from '../../commands/device/device-records.js';
import type { Services } from '../../services.js';
import { recordRouter } from './record-router.js';

/** /device/v1/zones: the generic record operations with the zone tree's rules. */
export function zonesRouter(services: Services): Router {
  return recordRouter(services, zones);
}
