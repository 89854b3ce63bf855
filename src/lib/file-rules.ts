/**
 * What a file field accepts (spec section 5). Types are file-name extensions, lower case, without the dot;
 * the size limit is in megabytes of 1024 × 1024 bytes. The messages are the spec's own:
 * 'Invalid file type. Allowed types: pdf, jpg, jpeg, png' (the extensions, joined by ', ', in the order
 * given) and 'File size exceeds 10MB limit'. The type is checked before the size.
 */
export interface FileRules {
  /** Allowed extensions ('pdf', 'jpg'...); null or empty allows any type. */
  types: readonly string[] | null;
  maxMb: number;
}

export const MB = 1024 * 1024;

/** The general file field: any type, up to 5 MB. */
export const DEFAULT_FILE_RULES: FileRules = { types: null, maxMb: 5 };

/** The deposit proof: pdf, jpg, jpeg or png, up to 10 MB. */
export const DEPOSIT_PROOF_RULES: FileRules = { types: ['pdf', 'jpg', 'jpeg', 'png'], maxMb: 10 };

export const invalidTypeMessage = (types: readonly string[]) => `Invalid file type. Allowed types: ${types.join(', ')}`;
export const tooLargeMessage = (maxMb: number) => `File size exceeds ${maxMb}MB limit`;

export const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

/** The spec's message for a file the field refuses, or null when it is accepted. */
export function checkFile(file: { name: string; size: number }, rules: FileRules = DEFAULT_FILE_RULES): string | null {
  if (rules.types && rules.types.length > 0 && !rules.types.includes(extensionOf(file.name))) {
    return invalidTypeMessage(rules.types);
  }
  if (file.size > rules.maxMb * MB) return tooLargeMessage(rules.maxMb);
  return null;
}

/** The `accept` attribute for the file input: '.pdf,.jpg,.jpeg,.png', or undefined for any type. */
export function acceptAttribute(rules: FileRules): string | undefined {
  return rules.types && rules.types.length > 0 ? rules.types.map((t) => `.${t}`).join(',') : undefined;
}

/** A file size for people: '812 B', '14.2 KB', '3.5 MB'. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MB) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / MB).toFixed(1)} MB`;
}
