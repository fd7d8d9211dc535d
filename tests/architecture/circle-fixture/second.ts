import type { First } from './first.js';

/** The other half of the deliberate import circle. */
export type Second = { first?: First };
