/** Leaf of the domain; the allowed package import beside the refused ones. */
import 'temporal-polyfill';
import 'kysely';
import 'node:crypto';
import '../infra/adapter.js';
import '../services.js';
export type Pure = string;
