import type { Resource } from './resource.js';

/**
 * The resource fields a placement's own rules may read (bookingPolicyRefusal, the limit, the
 * buffers): the free search decides once per key of these (migration 0034's `policy_key` is the
 * hash of exactly their columns), so a rule reading any other field would answer wrongly for every
 * resource of the key but the one it was decided on. A rule that needs another field adds it here
 * and to the key's column together; tests/domain/placement/policy-key.test.ts holds the verdict to this list.
 */
export const policyKeyFields = ['isActive', 'bookingPolicy', 'availability'] as const satisfies readonly (keyof Resource)[];

/**
 * The fields the search states per resource beside its key, in the free page's statement: a removed
 * resource is no candidate, its units are compared with those asked, its own blackouts are found by id.
 */
export const perResourceFields = ['id', 'removed', 'units'] as const satisfies readonly (keyof Resource)[];

/** What a verdict that the search remembers per key may see of a resource. */
export type PolicyKeyed = Pick<Resource, (typeof policyKeyFields)[number]>;
