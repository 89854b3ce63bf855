import type { TestProject } from 'vitest/node';

/**
 * Once per run of the node project: the migrated and seeded database every freshServer() starts from (see
 * freshSeededDatabase in server/test-support.ts), on the engine of this run. It runs in vitest's main process,
 * which does not get the project's `env`: that is copied in first, before the modules that read it load.
 */
export default async function setup(project: TestProject) {
  for (const [name, value] of Object.entries(project.config.env ?? {})) process.env[name] ??= String(value);
  // the flows' export runs only the machines' story writers: no server test, no database
  if (process.env.FLOWS_WRITE === '1') return project.provide('seededTemplate', null);
  const { buildSeededTemplate } = await import('../test-support');
  const template = await buildSeededTemplate();
  project.provide('seededTemplate', template.target);
  return () => template.drop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    seededTemplate: string | null;
  }
}
