/**
 * The words of form errors. The generated schemas (openapi/valibot.ts) take the contract's constraints; a
 * form gives the words, per field and rule, and falls back on these defaults.
 */
export type Rule =
  | 'required'
  | 'type'
  | 'minLength'
  | 'maxLength'
  | 'minItems'
  | 'maxItems'
  | 'uniqueItems'
  | 'maxBytes'
  | 'pattern'
  | 'format'
  | 'integer'
  | 'minimum'
  | 'maximum'
  | 'multipleOf'
  | 'enum';

/** The message for a field (its path in the body, `address.city` when nested) that breaks `rule`. */
export type Messages = (field: string, rule: Rule, limit?: number | string) => string;

/** A form's words for a field's rules: a text, or a text made from the rule's limit ('at least 5.00'). */
export type FieldMessages = Partial<Record<Rule, string | ((limit: number | string | undefined) => string)>>;

const FORMAT_TEXT: Readonly<Record<string, string>> = {
  email: 'Enter a valid email address.',
  date: 'Enter a valid date.',
  'date-time': 'Enter a valid date and time.',
  uri: 'Enter a valid web address.',
};

// {n} is the rule's limit
const RULE_TEXT: Readonly<Record<Rule, string>> = {
  required: 'This field is required.',
  type: 'This value is not valid.',
  minLength: 'Use at least {n} characters.',
  maxLength: 'Use at most {n} characters.',
  minItems: 'Choose at least {n}.',
  maxItems: 'Choose at most {n}.',
  uniqueItems: 'Choose each one once.',
  // the spec's words (section 5), the limit in MB of 1,048,576 bytes
  maxBytes: 'File size exceeds {n}MB limit',
  pattern: 'This is not in the expected form.',
  format: 'This is not in the expected form.',
  integer: 'Enter a whole number.',
  minimum: 'Enter {n} or more.',
  maximum: 'Enter {n} or less.',
  multipleOf: 'Enter a multiple of {n}.',
  enum: 'Choose one of the options.',
};

export const defaultMessages: Messages = (_field, rule, limit) => {
  if (rule === 'format' && FORMAT_TEXT[String(limit)]) return FORMAT_TEXT[String(limit)] as string;
  const n = rule === 'maxBytes' ? Number(limit) / 1_048_576 : limit;
  return RULE_TEXT[rule].replace('{n}', String(n));
};

/** Messages with a form's own words where it has them: `formMessages({ email: { required: 'Enter your email address.' } })`. */
export function formMessages(words: Readonly<Record<string, FieldMessages>>, fallback: Messages = defaultMessages) {
  const messages: Messages = (field, rule, limit) => {
    const said = words[field]?.[rule];
    return typeof said === 'function' ? said(limit) : (said ?? fallback(field, rule, limit));
  };
  return messages;
}
