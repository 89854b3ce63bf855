/** The text of one module with every request body's schema, for a contract (parsed YAML): see contract-valibot.mjs. */
export function valibotModule(doc: unknown): string;
/** The generated modules by path under openapi/ (valibot.ts and valibot/<tag>.ts): see contract-valibot.mjs. */
export function valibotModules(doc: unknown): Map<string, string>;
