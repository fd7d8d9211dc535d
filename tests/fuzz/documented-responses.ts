import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { isObject, resolve, type Doc, type Json } from '../support/openapi-document.js';

// ajv-formats is CommonJS: under ESM its function is the default export's default.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** What an answer must look like: a schema validator per documented status (null: no JSON body documented). */
export type ResponseRules = Map<string, ValidateFunction | null>;

/**
 * The documented answers of every operation of one OpenAPI document, compiled with ajv against
 * the document itself so that $refs resolve as a client's generator would resolve them.
 */
export function documentedResponses(doc: Doc, file: string): (path: string, method: string) => ResponseRules {
  const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true, logger: false, discriminator: false });
  addFormats(ajv);
  ajv.addSchema(doc as object, file);
  const cache = new Map<string, ResponseRules>();
  return (path, method) => {
    const key = `${method} ${path}`;
    const known = cache.get(key);
    if (known) return known;
    const rules: ResponseRules = new Map();
    const responses = doc.paths[path]?.[method]?.responses as Json | undefined;
    for (const [status, raw] of Object.entries(responses ?? {})) {
      const pointer = isObject(raw) && typeof raw.$ref === 'string' ? raw.$ref.slice(1) : `/paths/${escapePointer(path)}/${method}/responses/${status}`;
      const response = resolve(doc, raw) as Json;
      const json = isObject(response.content) ? Object.keys(response.content).find((type) => type.includes('json')) : undefined;
      if (!json || !isObject(response.content[json].schema)) {
        rules.set(status, null);
        continue;
      }
      rules.set(status, ajv.getSchema(`${file}#${pointer}/content/${escapePointer(json)}/schema`) ?? null);
    }
    cache.set(key, rules);
    return rules;
  };
}
