import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { docsProblems, pageProblems } from './docs-check.mjs';

const root = mkdtempSync(join(tmpdir(), 'docs-check-'));
const put = (path, text = '') => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};
put('server/domain/ledger.ts');
put('machines/order.machine.ts');
put('docs/decisions/double-entry-ledger.md');
put('docs/README.md');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the docs check', () => {
  it('takes links and backticked paths that lead to the repository, patterns and built folders', () => {
    const page = [
      'The ledger (`server/domain/ledger.ts`, `machines/order.machine`, `server/domain/`) is a',
      '[decision](decisions/double-entry-ledger.md#context); see [Stripe](https://stripe.com) and [above](#top).',
      'One folder per area: `machines/<area>/`, the tests `*.model.test.ts`; built: `public/flows/index.json`.',
      'An API path is not a file: `/settings/my-account`.',
      '```sh',
      'cat server/none.ts `server/none.ts`',
      '```',
    ].join('\n');
    expect(pageProblems(root, 'docs/README.md', page)).toEqual([]);
  });

  it('refuses a link to nothing, a path that is not there and an issue number', () => {
    const page = [
      'See [the ledger](decisions/ledger.md) and `server/domain/wallet.ts`.',
      'Built in issue 12, fixed in (#15).',
      'As #231 said, and PR #7; the anchor [up](#top) and `#fff` are not issues.',
    ].join('\n');
    expect(pageProblems(root, 'docs/README.md', page)).toEqual([
      expect.stringContaining('docs/README.md:1: the link (decisions/ledger.md) leads to no file'),
      expect.stringContaining('docs/README.md:1: `server/domain/wallet.ts` is not a path'),
      expect.stringContaining("docs/README.md:2: 'issue 12' names an issue"),
      expect.stringContaining("docs/README.md:2: '(#15)' names an issue"),
      expect.stringContaining("docs/README.md:3: '#231' names an issue"),
      expect.stringContaining("docs/README.md:3: '#7' names an issue"),
    ]);
  });

  it('refuses a README over 200 lines, and a page the index does not link', () => {
    put('README.md', 'line\n'.repeat(200));
    expect(docsProblems(root)).toEqual([expect.stringContaining('docs/decisions/double-entry-ledger.md: no link')]);
    put('docs/README.md', '- [The ledger](decisions/double-entry-ledger.md)\n');
    expect(docsProblems(root)).toEqual([]);
    put('README.md', 'line\n'.repeat(201));
    expect(docsProblems(root)).toEqual([expect.stringContaining('README.md: 201 lines, over 200')]);
  });
});
