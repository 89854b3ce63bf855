import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The lint rules that keep the arrows (biome.json, `noRestrictedImports` per folder, and `noImportCycles`): each
 * file below is linted with the project's own configuration, in a scratch copy of the layout, and must be
 * refused with the rule's message, or pass.
 */
const CASES: Array<{ file: string; code: string; refused: string | null; rule?: string }> = [
  { file: 'machines/bad.ts', code: "import { routes } from '../src/routes';", refused: 'machines/ never imports src/' },
  {
    file: 'machines/testing/bad.ts',
    code: "import { app } from '../../server/app';",
    refused: 'machines/ never imports src/ or server/',
  },
  { file: 'machines/good.ts', code: "import { api } from '../openapi/client';", refused: null },
  {
    file: 'openapi/bad.ts',
    code: "import { sessionMachine } from '../machines/session.machine';",
    refused: 'openapi/ is the contract',
  },
  {
    file: 'server/routes/bad.ts',
    code: "import { sessionMachine } from '../../machines/session.machine';",
    refused: 'server/ never imports src/ or machines/',
  },
  {
    file: 'server/domain/bad.ts',
    code: "import { api } from '../../openapi/client';",
    refused: "server/ takes only the contract's generated types",
  },
  {
    file: 'server/domain/good.ts',
    code: "import { orderStatusValues } from '../../openapi/schema';",
    refused: null,
  },
  {
    file: 'server/contract/good.test.ts',
    code: "import { createPortalClient } from '../../openapi/client';",
    refused: null,
  },
  {
    file: 'server/contract/bad.test.ts',
    code: "import { routes } from '../../src/routes';",
    refused: 'server/ never imports src/ or machines/',
  },
  {
    file: 'src/features/auth/bad.tsx',
    code: "import { FeedList } from '../notifications/feed-view';",
    refused: 'A feature never imports another',
  },
  {
    file: 'src/features/auth/deep/bad.tsx',
    code: "import { FeedList } from '../../notifications/feed-view';",
    refused: 'A feature never imports another',
  },
  {
    file: 'src/features/auth/also-bad.tsx',
    code: "import KycPage from '../../features/settings/kyc-page';",
    refused: 'A feature never imports another',
  },
  {
    file: 'src/features/auth/good.tsx',
    code: [
      "import { formatDate } from '../../lib/format-date';",
      "import { Session } from '../../app/session';",
      "import { sessionMachine } from '../../../machines/session.machine';",
      "import { LoginPage } from './login-page';",
    ].join('\n'),
    refused: null,
  },
  {
    file: 'src/lib/bad.ts',
    code: "import { Session } from '../app/session';",
    refused: 'src/lib and src/ui are shared',
  },
  {
    file: 'src/ui/bad.tsx',
    code: "import { FeedList } from '../features/notifications/feed-view';",
    refused: 'src/lib and src/ui are shared',
  },
  { file: 'src/app/bad.ts', code: "import { app } from '../../server/app';", refused: 'src/ never imports server/' },
  // no import cycles (`noImportCycles`), a lazy import's included: a piece two areas share gets a place of its own
  {
    file: 'src/app/cycle-a.ts',
    code: "export const a = () => import('./cycle-b');",
    refused: 'This import is part of a cycle.',
    rule: 'lint/suspicious/noImportCycles',
  },
  {
    file: 'src/app/cycle-b.ts',
    code: "import { a } from './cycle-a';\nexport const b = a;",
    refused: 'This import is part of a cycle.',
    rule: 'lint/suspicious/noImportCycles',
  },
  {
    file: 'src/app/no-cycle.ts',
    code: "import { a } from './cycle-a';\nexport const c = a;",
    refused: null,
    rule: 'lint/suspicious/noImportCycles',
  },
];

interface Report {
  diagnostics: Array<{ category: string; message: string; location: { path: string } }>;
}

describe('lint keeps the arrows: src -> machines -> openapi, server -> openapi (its generated schema), no cycles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arrows-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'));
  for (const { file, code } of CASES) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), `${code}\n`);
  }
  const run = () => {
    try {
      return execFileSync(join(ROOT, 'node_modules/.bin/biome'), ['lint', '--reporter=json', '.'], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    } catch (error) {
      // biome exits 1 when it finds errors; the report is on stdout all the same
      return String((error as { stdout?: string }).stdout ?? '');
    }
  };
  const report = JSON.parse(run()) as Report;
  const refusals = (file: string, rule: string) =>
    report.diagnostics.filter((d) => d.category === rule && d.location.path === file).map((d) => d.message);

  for (const { file, code, refused, rule = 'lint/style/noRestrictedImports' } of CASES) {
    it(`${refused ? 'refuses' : 'allows'} in ${file}: ${code.split('\n')[0]}`, () => {
      if (refused) expect(refusals(file, rule)).toEqual([expect.stringContaining(refused)]);
      else expect(refusals(file, rule)).toEqual([]);
    });
  }
});
