// One of each control (`npm run check:controls`, run by `npm test`): the app has one dropdown, the kit's
// `src/ui/dropdown.tsx`, and one file picker, the kit's `src/ui/file-field.tsx`. A native <select>, a <datalist>, a
// hand-made combobox or listbox, or a second file input anywhere else in src/ is refused, so that a third style of
// either cannot come back one page at a time.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What each rule looks for, where it may appear, and what to use instead. */
export const RULES = [
  {
    name: 'a native <select>',
    pattern: /<select(\s|>|$)/,
    // the calendar's month and year, inside the date picker's own popover (the kit's dropdown cannot nest there)
    allowed: ['src/ui/date-picker.tsx'],
    use: "the kit's Dropdown (src/ui/dropdown.tsx; searchable={false} for a short list)",
  },
  {
    name: 'a <datalist>',
    pattern: /<datalist(\s|>|$)/,
    allowed: [],
    use: "the kit's Dropdown with freeText (src/ui/dropdown.tsx)",
  },
  {
    name: 'a combobox or listbox of its own',
    pattern: /role=["'{]+(combobox|listbox)/,
    allowed: ['src/ui/dropdown.tsx'],
    use: "the kit's Dropdown (src/ui/dropdown.tsx)",
  },
  {
    name: 'a file input of its own',
    pattern: /type=["'{]+file\b|type:\s*['"]file['"]/,
    allowed: ['src/ui/file-field.tsx'],
    use: 'the kit\'s FileField (src/ui/file-field.tsx; multiple, variant="button" for a list row)',
  },
];

/** The view code the rules read: src/, without tests and Panda's generated styled-system. */
export const isViewSource = (path) =>
  /^src\/.*\.(tsx|ts|jsx|js)$/.test(path) && !/\.test\.[jt]sx?$/.test(path) && !path.startsWith('src/styled-system/');

/**
 * What breaks the one-control rule in these files, one line each: the file, the line, what it found, and what to
 * use instead.
 * @param {Array<{ path: string, text: string }>} files
 */
export function controlProblems(files, rules = RULES) {
  const problems = [];
  for (const { path, text } of files) {
    if (!isViewSource(path)) continue;
    const lines = text.split('\n');
    for (const rule of rules) {
      if (rule.allowed.includes(path)) continue;
      lines.forEach((line, i) => {
        if (rule.pattern.test(line)) problems.push(`${path}:${i + 1}: ${rule.name}; use ${rule.use}.`);
      });
    }
  }
  return problems;
}

/** The files under src/ of the repository at `root`, with their text. */
export function viewFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      const path = relative(root, full).split('\\').join('/');
      if (entry.isDirectory()) {
        if (path !== 'src/styled-system') walk(full);
      } else if (isViewSource(path)) files.push({ path, text: readFileSync(full, 'utf8') });
    }
  };
  walk(join(root, 'src'));
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(fileURLToPath(import.meta.url), '../../..');
  const files = viewFiles(root);
  const problems = controlProblems(files);
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    process.exit(1);
  }
  console.info(`one control of each: ${files.length} view files, one dropdown and one file picker`);
}
