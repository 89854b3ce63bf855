import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A step of a migration that would break the older version still serving while it runs. */
export interface UnsafeStep {
  migration: string;
  line: number;
  problem: string;
}

/**
 * The rules of an upgrade without stopping sales (expand, then contract a release later): while the new version's
 * migrations run, the older version still serves on the same database, so a migration's `up` may add tables,
 * nullable columns, columns with a default and indexes, but must not take away or change what the older code
 * reads and writes. A step that is safe all the same (a trigger renamed, a table no released version used) says
 * why in a comment `// upgrade-safe: <why>` on its line or the line above.
 */
const RULES: Array<{ test: RegExp; problem: string }> = [
  { test: /\.dropTable\(|\bDROP\s+TABLE\b/i, problem: 'drops a table the older version may still use' },
  { test: /\.dropColumn\(|\bDROP\s+COLUMN\b/i, problem: 'drops a column the older version may still read' },
  {
    test: /\.renameColumn\(|\.renameTo\(|\bRENAME\s+(COLUMN\b|TO\b)/i,
    problem: 'renames what the older version names: add the new one beside it instead',
  },
  {
    test: /\.setDataType\(|\bALTER\s+COLUMN\s+\w+\s+(SET\s+DATA\s+)?TYPE\b/i,
    problem: "changes a column's type under the older version",
  },
  {
    test: /\.setNotNull\(|\bSET\s+NOT\s+NULL\b/i,
    problem: 'makes a column required that the older version may leave empty',
  },
];

/** The body of `export async function up(...)`, with the line it starts on. */
function upOf(source: string): { body: string; firstLine: number } | null {
  const start = source.search(/export\s+async\s+function\s+up\s*\(/);
  if (start < 0) return null;
  const rest = source.slice(start);
  const end = rest.search(/\nexport\s+async\s+function\s+down\s*\(/);
  return { body: end < 0 ? rest : rest.slice(0, end), firstLine: source.slice(0, start).split('\n').length };
}

const excused = (lines: string[], i: number) =>
  /\/\/\s*upgrade-safe:\s*\S/.test(lines[i] ?? '') || /^\s*\/\/\s*upgrade-safe:\s*\S/.test(lines[i - 1] ?? '');

/** The unsafe steps of one migration's source. */
export function unsafeSteps(migration: string, source: string): UnsafeStep[] {
  const up = upOf(source);
  if (!up) return [];
  const lines = up.body.split('\n');
  const found: UnsafeStep[] = [];
  lines.forEach((text, i) => {
    if (excused(lines, i)) return;
    for (const rule of RULES)
      if (rule.test.test(text)) found.push({ migration, line: up.firstLine + i, problem: rule.problem });
  });
  // a required column added to a table that has rows: the older version's inserts leave it out
  const statement = /alterTable\([^)]*\)([\s\S]*?)\.execute\(\)/g;
  for (let m = statement.exec(up.body); m; m = statement.exec(up.body)) {
    const line = up.body.slice(0, m.index).split('\n').length - 1;
    const text = m[1] ?? '';
    const required = /\.addColumn\([^;]*?\.notNull\(\)/.test(text) && !/defaultTo\(/.test(text);
    if (required && !excused(lines, line) && !excused(lines, line + 1))
      found.push({
        migration,
        line: up.firstLine + line,
        problem: 'adds a required column without a default: the older version inserts rows without it',
      });
  }
  return found;
}

/** Every migration file of `dir` checked (server/db/migrations). */
export function checkMigrations(dir: string): UnsafeStep[] {
  return readdirSync(dir)
    .filter((name) => /^\d{4}-.*\.ts$/.test(name))
    .sort()
    .flatMap((name) => unsafeSteps(name.replace(/\.ts$/, ''), readFileSync(join(dir, name), 'utf8')));
}
