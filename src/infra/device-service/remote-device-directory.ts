import { DomainError } from '../../domain/domain-error.js';
import { boundedCache } from '../cache/bounded-cache.js';
import type { DeviceDirectory, DeviceRecordSummary } from './device-directory.js';

const fiveMinutes = 5 * 60 * 1000;
/** Levels of a zone tree followed up from a zone. */
const maxZoneDepth = 64;

const unavailable = (why: string) => new DomainError('dependency_unavailable', `device service unavailable: ${why}`);

/**
 * Reads `{url}/device/v1/devices/{id}` or `/zones/{id}` with the caller's Authorization header
 * and the workspace in X-Workspace.
 * Found records are cached for five minutes; absences are not, so a record created a moment ago
 * is seen at once.
 */
export function createRemoteDeviceDirectory(baseUrl: string, options: { timeoutMs?: number; fetch?: typeof fetch } = {}): DeviceDirectory {
  const cache = boundedCache<string, DeviceRecordSummary>('device-records', { maxEntries: 10_000 }, { ttlMs: fiveMinutes });
  const doFetch = options.fetch ?? fetch;
  const directory: DeviceDirectory = {
    async lookup(kind, workspace, id, authorization) {
      // The caller's credentials are part of the key: what one caller may see is not served to another.
      const key = `${authorization ?? ''}\u0000${workspace}\u0000${kind}\u0000${id}`;
      const cached = cache.get(key);
      if (cached) return cached;
      let response: Response;
      try {
        response = await doFetch(`${baseUrl}/device/v1/${kind}s/${encodeURIComponent(id)}`, {
          // X-Workspace lets an LV1 caller address a workspace other than its token's.
          headers: { accept: 'application/json', 'x-workspace': workspace, ...(authorization ? { authorization } : {}) },
          redirect: 'error',
          signal: AbortSignal.timeout(options.timeoutMs ?? 3_000),
        });
      } catch (error) {
        throw unavailable(error instanceof Error ? error.message : String(error));
      }
      // Only a 404 means the record is gone; a refused credential must never read as a deletion.
      if (response.status === 404) return null;
      if (!response.ok) throw unavailable(`HTTP ${response.status}`);
      const body = (await response.json().catch(() => null)) as { name?: unknown; workspace?: unknown; parentZoneId?: unknown } | null;
      if (!body || typeof body.name !== 'string') throw unavailable('answer without a name');
      if (typeof body.workspace === 'string' && body.workspace !== workspace) return null;
      const summary = { name: body.name, parentZoneId: typeof body.parentZoneId === 'string' ? body.parentZoneId : null };
      cache.set(key, summary);
      return summary;
    },
    async zoneAncestors(workspace, zoneId, authorization) {
      const zone = await directory.lookup('zone', workspace, zoneId, authorization);
      if (!zone) return null;
      const ancestors: string[] = [];
      // Walks up by parentZoneId; a parent that is gone or a cycle ends the walk.
      for (let parent = zone.parentZoneId; parent && parent !== zoneId && !ancestors.includes(parent) && ancestors.length < maxZoneDepth; ) {
        ancestors.push(parent);
        parent = (await directory.lookup('zone', workspace, parent, authorization))?.parentZoneId;
      }
      return ancestors;
    },
  };
  return directory;
}
