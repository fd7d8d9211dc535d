/** A read model that climbs to a command and to the services, and shapes an HTTP answer. */
import 'express';
import 'node:zlib';
import 'node:http';
import 'kysely';
import '../commands/command.js';
import '../services.js';
export type ReadModel = string;
