import fs from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

type AsyncApiDocument = { components: { messages: Record<string, { name: string; payload: { $ref: string } }> } };

const documentPath = new URL('../../asyncapi/booking-events.yaml', import.meta.url);
export const asyncApiText = fs.readFileSync(documentPath, 'utf8');
const asyncApi = parse(asyncApiText) as AsyncApiDocument;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(asyncApi, 'asyncapi');

/** Event name → the message's payload schema, straight from the AsyncAPI document. */
const payloadRefOf = new Map(Object.values(asyncApi.components.messages).map((m) => [m.name, m.payload.$ref]));

export const documentedEventNames = [...payloadRefOf.keys()];

/** Throws, naming every mismatch, when an envelope the service sent does not conform to its message schema. */
export function assertPublishedEvent(envelope: unknown): void {
  const name = (envelope as { event?: unknown })?.event;
  const ref = typeof name === 'string' ? payloadRefOf.get(name) : undefined;
  if (!ref) throw new Error(`event ${JSON.stringify(name)} has no message in asyncapi/booking-events.yaml`);
  const validate = ajv.getSchema(`asyncapi${ref}`);
  if (!validate) throw new Error(`no schema at ${ref}`);
  if (!validate(envelope)) {
    throw new Error(`${name} does not conform to asyncapi/booking-events.yaml: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(envelope)}`);
  }
}

const violations: string[] = [];

/**
 * For receivers (webhook endpoints, Kafka consumers), where a throw would only reach the sender:
 * checks the envelope and keeps what does not conform, and the root hook fails the running test.
 */
export function checkPublishedEvent(envelope: unknown): void {
  try {
    assertPublishedEvent(envelope);
  } catch (error) {
    violations.push((error as Error).message);
  }
}

/** The non-conforming events received since the last call. */
export function takePublishedEventViolations(): string[] {
  return violations.splice(0);
}
