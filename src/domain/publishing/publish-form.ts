import { invalidRequest } from '../domain-error.js';
import { isStorableText } from '../record/coerce-field-value.js';

/** The text fields of an upload (spec 4.1); optional ones are null when left out. */
export type PublishForm = {
  name: string;
  displayName: string;
  version: string;
  description: string | null;
  category: string | null;
  semVer: string | null;
};

type FieldRule = { required: boolean; maxLength: number };

// The catalog's bounds of the application record, so that a published record stays editable there.
const fieldRules: Record<keyof PublishForm, FieldRule> = {
  name: { required: true, maxLength: 256 },
  displayName: { required: true, maxLength: 256 },
  version: { required: true, maxLength: 128 },
  description: { required: false, maxLength: 10_000 },
  category: { required: false, maxLength: 256 },
  semVer: { required: false, maxLength: 128 },
};

export const isPublishFormField = (name: string): name is keyof PublishForm => Object.hasOwn(fieldRules, name);

/** The form from the fields as sent; a missing, blank or overlong field is refused by name. */
export function publishFormOf(fields: ReadonlyMap<string, string>): PublishForm {
  const form: Record<string, string | null> = {};
  for (const [name, rule] of Object.entries(fieldRules)) {
    const value = fields.get(name);
    if (value === undefined || value.trim() === '') {
      if (rule.required) throw invalidRequest(`${name} is required`, `/body/${name}`);
      form[name] = null;
      continue;
    }
    if (value.length > rule.maxLength) throw invalidRequest(`${name} must be at most ${rule.maxLength} characters`, `/body/${name}`);
    if (!isStorableText(value)) throw invalidRequest(`${name} may not contain a NUL character`, `/body/${name}`);
    form[name] = value;
  }
  return form as PublishForm;
}
