import type { Second } from './second.js';

/** Half of a deliberate import circle: the import check must refuse it. */
export type First = { second?: Second };
