import { pathToFileURL } from 'node:url';
import { type Plugin, parseAst } from 'vite';

/**
 * Vite plugin (build only): replaces each Panda `css({...})` call whose arguments are plain literals with the
 * class names it returns, computed once at build time by the generated `styled-system/css` itself. Panda's
 * `css()` turns a style object into class names at run time, at every render that calls it: it walks, sorts
 * and joins the object (about 100 ms of a /dashboard load's main thread at Lighthouse's 4x CPU slowdown). Its
 * CSS is extracted from the sources by Panda's PostCSS plugin, which this does not touch: only the strings
 * the browser would have computed are written in the bundle instead of the call.
 *
 * A call is folded only when every argument is an object literal of literals (strings, numbers, booleans,
 * null, nested objects and arrays, template strings without expressions): a call with a variable, a spread or
 * a computed key stays a call, computed at run time as before. `fold` is exported for the tests.
 */
export function pandaStaticCss({ runtime }: { runtime: string }): Plugin {
  let cssOf: ((...styles: unknown[]) => string) | undefined;
  return {
    name: 'panda-static-css',
    apply: 'build',
    // after the TypeScript and JSX transforms: the code is plain JavaScript
    enforce: 'post',
    async buildStart() {
      ({ css: cssOf } = (await import(pathToFileURL(runtime).href)) as { css: (...styles: unknown[]) => string });
    },
    transform: {
      filter: { id: /[\\/]src[\\/](?!styled-system[\\/]).*\.tsx?$/, code: 'styled-system/css' },
      handler(code, id) {
        if (!cssOf) throw new Error('panda-static-css: the Panda runtime was not loaded');
        const folded = fold(code, cssOf, id);
        return folded === code ? null : { code: folded, map: null };
      },
    },
  };
}

type Node = { type: string; start: number; end: number; [key: string]: unknown };
const NOT_STATIC = Symbol('not static');

/** The value of a literal expression, or NOT_STATIC. */
function literalValue(node: Node): unknown {
  switch (node.type) {
    case 'Literal': {
      const value = node.value;
      // regular expressions and bigints are not style values
      return value === null || ['string', 'number', 'boolean'].includes(typeof value) ? value : NOT_STATIC;
    }
    case 'TemplateLiteral': {
      const quasis = node.quasis as Array<{ value: { cooked: string | null } }>;
      return (node.expressions as Node[]).length === 0 && quasis.length === 1 && quasis[0]?.value.cooked != null
        ? quasis[0].value.cooked
        : NOT_STATIC;
    }
    case 'UnaryExpression': {
      const argument = literalValue(node.argument as Node);
      return node.operator === '-' && typeof argument === 'number' ? -argument : NOT_STATIC;
    }
    case 'ArrayExpression': {
      const items = (node.elements as Array<Node | null>).map((e) => (e ? literalValue(e) : NOT_STATIC));
      return items.includes(NOT_STATIC) ? NOT_STATIC : items;
    }
    case 'ObjectExpression': {
      const result: Record<string, unknown> = {};
      for (const property of node.properties as Node[]) {
        if (property.type !== 'Property' || property.kind !== 'init' || property.method) return NOT_STATIC;
        const key = property.key as Node;
        const name = property.computed
          ? literalValue(key)
          : key.type === 'Identifier'
            ? (key.name as string)
            : literalValue(key);
        if (typeof name !== 'string' && typeof name !== 'number') return NOT_STATIC;
        const value = literalValue(property.value as Node);
        if (value === NOT_STATIC) return NOT_STATIC;
        result[String(name)] = value;
      }
      return result;
    }
    default:
      return NOT_STATIC;
  }
}

function walk(node: unknown, visit: (node: Node) => void) {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (!node || typeof node !== 'object' || typeof (node as Node).type !== 'string') return;
  visit(node as Node);
  for (const [key, child] of Object.entries(node)) {
    if (key !== 'type' && child && typeof child === 'object') walk(child, visit);
  }
}

/**
 * `code` (JavaScript) with its static `css(...)` calls, `css` being imported from 'styled-system/css', replaced
 * by the string `cssOf` returns for them. The code is unchanged when it imports no `css` or has no such call.
 */
export function fold(code: string, cssOf: (...styles: never[]) => string, id = 'module'): string {
  const classesOf = cssOf as (...styles: unknown[]) => string;
  const program = parseAst(code) as unknown as Node;
  const locals = new Set<string>();
  for (const statement of program.body as Node[]) {
    if (statement.type !== 'ImportDeclaration' || (statement.source as Node).value !== 'styled-system/css') continue;
    for (const specifier of statement.specifiers as Node[]) {
      const imported = specifier.imported as Node | undefined;
      if (specifier.type === 'ImportSpecifier' && imported && (imported.name ?? imported.value) === 'css') {
        locals.add((specifier.local as Node).name as string);
      }
    }
  }
  if (locals.size === 0) return code;
  const edits: Array<{ start: number; end: number; text: string }> = [];
  walk(program, (node) => {
    if (node.type !== 'CallExpression' || node.optional) return;
    const callee = node.callee as Node;
    if (callee.type !== 'Identifier' || !locals.has(callee.name as string)) return;
    const args = (node.arguments as Node[]).map(literalValue);
    if (args.length === 0 || args.some((a) => a === NOT_STATIC || !a || typeof a !== 'object' || Array.isArray(a))) {
      return;
    }
    // the AST's offsets must be the string's: a call that does not read as one is a parser mismatch, not a fold
    if (!code.startsWith(`${callee.name}(`, node.start) || code[node.end - 1] !== ')') {
      throw new Error(`panda-static-css: offsets of ${id} do not match its code at ${node.start}`);
    }
    // the same lines: what follows keeps its line numbers (source maps, stack traces)
    const newlines = code.slice(node.start, node.end).split('\n').length - 1;
    edits.push({ start: node.start, end: node.end, text: JSON.stringify(classesOf(...args)) + '\n'.repeat(newlines) });
  });
  // a css() call inside another's arguments is not static, so edits never nest
  let result = code;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  }
  return result;
}
