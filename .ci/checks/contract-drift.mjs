// Fails when openapi/schema.d.ts is not what openapi-typescript makes of openapi/portal.yaml today.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'contract-'));
const fresh = join(dir, 'schema.d.ts');
try {
  execFileSync('node_modules/.bin/openapi-typescript', ['openapi/portal.yaml', '-o', fresh], { stdio: 'pipe' });
  if (readFileSync(fresh, 'utf8') !== readFileSync('openapi/schema.d.ts', 'utf8')) {
    console.error('openapi/schema.d.ts is stale: run `npm run contract:gen` and commit the result.');
    process.exit(1);
  }
  console.info('openapi/schema.d.ts matches openapi/portal.yaml');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
