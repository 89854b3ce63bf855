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
  | 'maxBytes'
  | 'pattern'
  | 'format'
  | 'integer'
  | 'minimum'
  | 'maximum'
  | 'enum';

/** The message for a field (its path in the body, `address.city` when nested) that breaks `rule`. */
export type Messages = (field: string, rule: Rule, limit?: number | string) => string;

export type FieldMessages = Partial<Record<Rule, string>>;

const FORMAT_TEXT: Record<string, string> = {
  email: 'Enter a valid email address.',
  date: 'Enter a valid date.',
  'date-time': 'Enter a valid date and time.',
  uri: 'Enter a valid web address.',
  uuid: 'This is not a valid identifier.',
};

export const defaultMessages: Messages = (_field, rule, limit) => {
  switch (rule) {
    case 'required':
      return 'This field is required.';
    case 'minLength':
      return `Use at least ${limit} characters.`;
    case 'maxLength':
      return `Use at most ${limit} characters.`;
    case 'minItems':
      return `Choose at least ${limit}.`;
    case 'maxItems':
      return `Choose at most ${limit}.`;
    case 'maxBytes':
      // the spec's words (section 5), the limit in MB of 1,048,576 bytes
      return `File size exceeds ${Number(limit) / 1_048_576}MB limit`;
    case 'pattern':
      return 'This is not in the expected form.';
    case 'format':
      return FORMAT_TEXT[String(limit)] ?? 'This is not in the expected form.';
    case 'integer':
      return 'Enter a whole number.';
    case 'minimum':
      return `Enter ${limit} or more.`;
    case 'maximum':
      return `Enter ${limit} or less.`;
    case 'enum':
      return 'Choose one of the options.';
    default:
      return 'This value is not valid.';
  }
};

/** Messages with a form's own words where it has them: `formMessages({ email: { required: 'Enter your email address.' } })`. */
export function formMessages(words: Readonly<Record<string, FieldMessages>>, fallback: Messages = defaultMessages) {
  const messages: Messages = (field, rule, limit) => words[field]?.[rule] ?? fallback(field, rule, limit);
  return messages;
}
