import { readFileSync } from 'node:fs';
import type { Plugin } from 'postcss';

/**
 * PostCSS plugin, after Panda's: drops the design tokens' CSS variables that nothing uses. Panda 1.12 writes every
 * token of its preset and our theme into the tokens layer (486 variables, 12.8 of the sheet's 41.5 KB; 64 used),
 * and /login waits for the whole sheet: the browser parses it before the first paint (46 ms of a Lighthouse trace
 * on this machine, 4x that on the simulated phone). A variable stays when any rule of the sheet reads it,
 * directly or through a variable that stays, or when one of the `readers` (the app's other style sheets, which
 * load with their chunks) reads it, or when `keep` names it (variables the app's code writes by name: the
 * skeleton's `var(--radii-${radius})`).
 */
export function pruneUnusedTokens({ keep = [], readers = [] }: { keep?: RegExp[]; readers?: string[] } = {}): Plugin {
  // names as written in the sheet, escapes included: Panda's semantic token accent.fg is --colors-accent\.fg
  const read = (value: string) => [...value.matchAll(/var\(\s*(--(?:[\w-]|\\.)+)/g)].map((m) => m[1] as string);
  return {
    postcssPlugin: 'prune-unused-tokens',
    OnceExit(root) {
      const declared = new Map<string, string[]>();
      const used = new Set<string>(readers.flatMap((file) => read(readFileSync(file, 'utf8'))));
      root.walkDecls((decl) => {
        if (decl.prop.startsWith('--'))
          declared.set(decl.prop, [...(declared.get(decl.prop) ?? []), ...read(decl.value)]);
        else for (const name of read(decl.value)) used.add(name);
      });
      for (const name of declared.keys()) if (keep.some((k) => k.test(name))) used.add(name);
      // a variable that stays keeps the variables its value reads
      const queue = [...used];
      while (queue.length > 0) {
        for (const name of declared.get(queue.pop() as string) ?? []) {
          if (!used.has(name)) {
            used.add(name);
            queue.push(name);
          }
        }
      }
      root.walkAtRules('layer', (layer) => {
        if (layer.params !== 'tokens') return;
        layer.walkDecls((decl) => {
          if (decl.prop.startsWith('--') && !used.has(decl.prop)) decl.remove();
        });
        layer.walkRules((rule) => {
          if (rule.nodes.length === 0) rule.remove();
        });
      });
    },
  };
}
