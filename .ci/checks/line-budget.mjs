// The line budget (`npm run check:lines`, run by `npm test`): no hand-written source file over 600 lines. A file
// that grows past it is split by job (queries, commands, rules; one component a file) before it lands.
// Exempt, each by name with its reason: generated files and pure data. The files over the budget today are listed in
// OVERSIZE, a list that may only shrink: the check fails when a file not on it passes 600 lines, and when a file on
// it is back under (take it off the list).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BUDGET = 600;

/** The kinds of file the budget counts: code, styles, the contract and configuration. */
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|css|html|json|yaml|yml|sh)$|^\.ci\/run$/;

/**
 * The files the budget does not count, each by name with its reason: generated files and pure data. Folders git
 * ignores (Panda's `src/styled-system/`, the flows' export in `public/flows/`) are built, not in the repository, so
 * the check never sees them. A generated or data file that passes 600 lines is added here by name.
 */
export const EXEMPT = {
  'openapi/schema.ts': 'generated from openapi/portal.yaml by npm run contract:gen',
  'package-lock.json': 'written by npm',
};

/**
 * The hand-written files over the budget, each to be split by job; the list may only shrink, and ends empty.
 * Lines when listed (28 November 2026), for the record: the check counts them again each time.
 */
export const OVERSIZE = [
  'openapi/portal.yaml', // 14,677: the contract, one document (split by tag into $ref'd files)
];

export const exemption = (path) => (Object.hasOwn(EXEMPT, path) ? EXEMPT[path] : null);

/** Lines of a text, as `wc -l` counts them (a last line without its newline counts too). */
export const countLines = (text) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/**
 * What is wrong with these files' sizes: a counted file over the budget and not listed, a listed file back within
 * it, a listed file that is gone or exempt.
 * @param {Array<{ path: string, lines: number }>} files
 * @param {string[]} oversize
 * @param {Record<string, string>} exempt
 */
export function budgetProblems(files, oversize = OVERSIZE, exempt = EXEMPT) {
  const problems = [];
  const listed = new Set(oversize);
  const seen = new Set();
  for (const { path, lines } of files) {
    if (Object.hasOwn(exempt, path)) seen.add(path);
    if (!SOURCE.test(path) || Object.hasOwn(exempt, path)) continue;
    seen.add(path);
    if (lines > BUDGET && !listed.has(path))
      problems.push(
        `${path}: ${lines} lines, over the budget of ${BUDGET}. Split it by job (queries, commands, rules; one component a file).`,
      );
    if (lines <= BUDGET && listed.has(path))
      problems.push(
        `${path}: ${lines} lines, within the budget now. Take it off OVERSIZE in .ci/checks/line-budget.mjs: the list only shrinks.`,
      );
  }
  for (const path of oversize)
    if (!seen.has(path) || Object.hasOwn(exempt, path))
      problems.push(`${path} is on OVERSIZE in .ci/checks/line-budget.mjs but is not a counted file: take it off.`);
  for (const path of Object.keys(exempt))
    if (!seen.has(path)) problems.push(`${path} is on EXEMPT in .ci/checks/line-budget.mjs but is gone: take it off.`);
  return problems;
}

/** The repository's files: those git tracks and those it would (new files), not those it ignores. */
export function repositoryFiles(root) {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = [];
  for (const path of new Set(out.split('\0').filter(Boolean))) {
    let text;
    try {
      text = readFileSync(resolve(root, path), 'utf8');
    } catch {
      continue; // deleted in the work tree, not yet in the index
    }
    files.push({ path, lines: countLines(text) });
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(fileURLToPath(import.meta.url), '../../..');
  const files = repositoryFiles(root);
  const problems = budgetProblems(files);
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    process.exit(1);
  }
  const counted = files.filter(({ path }) => SOURCE.test(path) && !exemption(path));
  const largest = counted.filter(({ path }) => !OVERSIZE.includes(path)).sort((a, b) => b.lines - a.lines)[0];
  console.info(
    `line budget: ${counted.length} hand-written files within ${BUDGET} lines but the ${OVERSIZE.length} listed` +
      (largest ? `; the largest of the rest: ${largest.path}, ${largest.lines}` : ''),
  );
}
