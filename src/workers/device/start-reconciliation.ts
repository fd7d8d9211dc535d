import type { Services } from '../../services.js';
import { createRemoteDeviceDirectory } from '../../infra/device-service/remote-device-directory.js';
import { createExclusiveLock } from '../create-exclusive-lock.js';
import { startSupervisedLoop, type RunningLoop } from '../supervised-loop.js';
import type { WorkerOptions } from '../worker-options.js';
import { reconcileResources } from './reconcile-resources.js';

/** Reconciles the resources (activity and names) with the device service every reconcileIntervalMs, from one instance at a time. */
export function startReconciliation(services: Services, options: WorkerOptions): RunningLoop {
  const { config, logger } = services;
  if (config.deviceServiceUrl && !config.deviceServiceToken) {
    logger.warn('PLATFORM_DEVICE_SERVICE_URL is set without DEVICE_SERVICE_TOKEN: reconciliation cannot read the device service');
  }
  const lock = createExclusiveLock(services, 'reconciliation');
  const authorization = config.deviceServiceToken ? `Bearer ${config.deviceServiceToken}` : undefined;
  return startSupervisedLoop(
    'reconciliation',
    logger,
    async () => {
      if (!(await lock.acquire())) return options.standbyRetryMs;
      // A directory of its own each round: reconciliation asks the device service, not its 5-minute cache.
      const devices = config.deviceServiceUrl ? createRemoteDeviceDirectory(config.deviceServiceUrl) : services.devices;
      const { deactivated, renamed } = await reconcileResources(services, devices, authorization);
      if (deactivated > 0) logger.info({ deactivated }, 'reconciliation deactivated resources the device service no longer has');
      if (renamed > 0) logger.info({ renamed }, 'reconciliation renamed resources after their device records');
      return options.reconcileIntervalMs;
    },
    { backoff: options.backoff, onStop: () => lock.release() },
  );
}
