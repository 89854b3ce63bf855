import * as v from 'valibot';

export const LoginSchema = v.object({
  email: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('Enter your email address.'),
    v.maxLength(254, 'An email address has at most 254 characters.'),
    v.email('Enter a valid email address, like name@example.com.'),
  ),
  password: v.pipe(
    v.string(),
    v.nonEmpty('Enter your password.'),
    v.maxLength(128, 'A password has at most 128 characters.'),
  ),
});

export type LoginValues = v.InferOutput<typeof LoginSchema>;
export type LoginErrors = Partial<Record<keyof LoginValues, string>>;

/** The first problem of each field, or the clean values. */
export function validateLogin(input: {
  email: string;
  password: string;
}): { ok: true; values: LoginValues } | { ok: false; errors: LoginErrors } {
  const result = v.safeParse(LoginSchema, input, { abortPipeEarly: true });
  if (result.success) return { ok: true, values: result.output };
  const errors: LoginErrors = {};
  for (const issue of result.issues) {
    const key = issue.path?.[0]?.key as keyof LoginValues | undefined;
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return { ok: false, errors };
}
