// Fails when a file generated from openapi/portal.yaml (see .ci/contract-gen.mjs) is not what the generator
// makes of the contract today. The check runs the same generator, with the same flags, into a temporary folder.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateContract, generatedFiles } from '../contract-gen.mjs';

const dir = mkdtempSync(join(tmpdir(), 'contract-'));
try {
  generateContract(dir);
  const expected = generatedFiles(dir);
  // a module in openapi/ the generator no longer makes (a tag gone) is stale too
  const present = generatedFiles('openapi');
  const stale = [...new Set([...expected, ...present])].filter((file) => {
    try {
      return readFileSync(join(dir, file), 'utf8') !== readFileSync(join('openapi', file), 'utf8');
    } catch {
      return true;
    }
  });
  if (stale.length > 0) {
    for (const file of stale)
      console.error(`openapi/${file} is stale: run \`npm run contract:gen\` and commit the result.`);
    process.exit(1);
  }
  console.info(`${expected.length} generated files in openapi/ match openapi/portal.yaml`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
