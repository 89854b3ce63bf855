/** The text of openapi/valibot.ts for a contract (parsed YAML): see contract-valibot.mjs. */
export function valibotModule(doc: unknown): string;
