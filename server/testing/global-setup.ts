import type { TestProject } from 'vitest/node';
import { buildSeededTemplate } from '../test-support';

/**
 * Once per run of the node project: the migrated and seeded database every freshServer() starts from (see
 * freshSeededDatabase in server/test-support.ts), on the engine of this run.
 */
export default async function setup(project: TestProject) {
  const template = await buildSeededTemplate();
  project.provide('seededTemplate', template.target);
  return () => template.drop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    seededTemplate: string | null;
  }
}
