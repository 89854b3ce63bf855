// The docs' check (`npm run check:docs`, run by `npm test`): the README stays a front door of at most 200 lines,
// every relative link of README.md and docs/ leads to a file or folder that exists, every repository path written
// in backticks (`server/domain/ledger.ts`, `machines/order.machine`) exists, no page names an issue number (the
// docs say what is; git keeps how it came to be), and the index (docs/README.md) links every page under docs/.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const README_MAX_LINES = 200;

/** Where a repository path starts: the rooms, the docs, CI and the build's inputs. */
const REPO_PATH = /^(\.ci|src|server|machines|openapi|e2e|scripts|docs|public)\/[\w.@/[\]-]*$/;
const TOP_FILES =
  /^(package\.json|package-lock\.json|biome\.json|vite\.config\.ts|panda\.config\.ts|tsconfig\.json|index\.html|README\.md|\.gitignore)$/;
/** Paths the build or a run makes: named in the docs, never in git. */
const BUILT = /^(public\/flows|src\/styled-system)(\/|$)/;
/** A path written as a pattern (`machines/<area>/`, `*.model.test.ts`, `docs/decisions/<slug>.md`). */
const PATTERN = /[<>*{}…]|\.\.\./;
/** The ways a module is named without its extension (`machines/order.machine`). */
const EXTENSIONS = ['', '.ts', '.tsx', '.mjs', '.js', '.json', '.md'];

/** The markdown files the check reads: README.md and everything under docs/. */
export function docFiles(root) {
  const out = ['README.md'];
  const walk = (dir) => {
    if (!existsSync(join(root, dir))) return;
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) out.push(path);
    }
  };
  walk('docs');
  return out;
}

const exists = (root, path) => EXTENSIONS.some((ext) => existsSync(join(root, `${path}${ext}`)));

/** The text outside fenced code blocks, line by line, with each line's number. */
function proseLines(text) {
  const lines = [];
  let fenced = false;
  for (const [i, line] of text.split('\n').entries()) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push({ n: i + 1, line });
  }
  return lines;
}

/**
 * What is wrong with one markdown file: a relative link to nothing, a backticked repository path that does not
 * exist, an issue number.
 * @param {string} root the repository
 * @param {string} file the file's path from the root
 * @param {string} text its content
 */
export function pageProblems(root, file, text) {
  const problems = [];
  for (const { n, line } of proseLines(text)) {
    const at = `${file}:${n}`;
    for (const [, target] of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^([a-z]+:|#)/i.test(target)) continue;
      const path = relative(root, resolve(root, dirname(file), decodeURI(target.split('#')[0] ?? '')));
      if (path.startsWith('..') || !existsSync(join(root, path)))
        problems.push(`${at}: the link (${target}) leads to no file of the repository`);
    }
    for (const [, code] of line.matchAll(/`([^`\s]+)`/g)) {
      const path = code.replace(/:\d+$/, '').replace(/^\.\//, '');
      if (!(REPO_PATH.test(path) || TOP_FILES.test(path)) || PATTERN.test(path) || BUILT.test(path)) continue;
      if (!exists(root, path.replace(/\/$/, ''))) problems.push(`${at}: \`${code}\` is not a path of the repository`);
    }
    // 'issue 12', '(#15)', a bare '#231' (not an anchor, a colour or other code: backticked text is left out)
    const prose = line.replace(/`[^`]*`/g, '');
    for (const [found] of prose.matchAll(/\bissues? #?\d+|\(#\d+\)|(?<![\w&/(#])#\d+\b/gi))
      problems.push(`${at}: '${found}' names an issue: say what is, git keeps where it came from`);
  }
  return problems;
}

/** Every problem of the docs under `root`. */
export function docsProblems(root) {
  const problems = [];
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
  if (lines > README_MAX_LINES)
    problems.push(`README.md: ${lines} lines, over ${README_MAX_LINES}: it is the front door, the rest goes to docs/`);
  for (const file of docFiles(root)) {
    if (!statSync(join(root, file)).isFile()) continue;
    problems.push(...pageProblems(root, file, readFileSync(join(root, file), 'utf8')));
  }
  problems.push(...unindexed(root));
  return problems;
}

/** The pages under docs/ that its index, docs/README.md, does not link: a reader would never find them. */
export function unindexed(root) {
  const index = join(root, 'docs', 'README.md');
  if (!existsSync(index)) return [];
  const linked = new Set();
  for (const [, target] of readFileSync(index, 'utf8').matchAll(/\]\(([^)\s#]+)[^)]*\)/g))
    linked.add(relative(root, resolve(root, 'docs', decodeURI(target))));
  return docFiles(root)
    .filter((file) => file.startsWith('docs/') && file !== 'docs/README.md' && !linked.has(file))
    .map((file) => `${file}: no link from docs/README.md (the index): add it there`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(fileURLToPath(import.meta.url), '../../..');
  const problems = docsProblems(root);
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    process.exit(1);
  }
  console.info(`docs: ${docFiles(root).length} pages, every link and path leads somewhere, README within its lines`);
}
