import type { Plugin } from 'vite';
import { SESSION_PRELOAD_FILE, type SessionPreload } from '../server/http/static';

/**
 * Vite plugin (build): writes `.session-preload.json` beside index.html, for the server to name in the HTML of a
 * page opened with a session the chunks the app will ask for as it starts (`<link rel="modulepreload">`): the
 * shell's and the page's (src/app/pages.ts `preloadRoute`), with the chunks they import. The browser then fetches
 * them with the entry, instead of after the entry has run (one request chain less before the page shows), and
 * Vite's preload helper finds them already there instead of adding a link per chunk as the entry runs.
 *
 * `pages` maps a route path to the modules the app loads for it there (the shell's and the page's), as absolute
 * paths; a file is a dotfile so that the static server never serves it.
 */
export function sessionPreload({ pages }: { pages: Record<string, string[]> }): Plugin {
  return {
    name: 'session-preload',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((f) => f.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) return;
      // what index.html already loads: the entry and what it imports statically
      const loaded = new Set<string>();
      const importsOf = (fileName: string, into: Set<string>) => {
        if (into.has(fileName)) return;
        into.add(fileName);
        const chunk = chunks.find((c) => c.fileName === fileName);
        for (const imported of chunk?.imports ?? []) importsOf(imported, into);
      };
      importsOf(entry.fileName, loaded);
      const paths: SessionPreload['paths'] = {};
      for (const [path, modules] of Object.entries(pages)) {
        const files = new Set<string>();
        for (const module of modules) {
          const chunk = chunks.find((c) => c.facadeModuleId === module || c.moduleIds.includes(module));
          if (!chunk) this.error(`session-preload: no chunk holds ${module}`);
          importsOf(chunk.fileName, files);
        }
        const scripts = [...files].filter((f) => !loaded.has(f));
        const styles = [
          ...new Set(
            scripts.flatMap((f) => [...(chunks.find((c) => c.fileName === f)?.viteMetadata?.importedCss ?? [])]),
          ),
        ];
        paths[path] = { scripts, styles };
      }
      const preload: SessionPreload = { paths };
      this.emitFile({ type: 'asset', fileName: SESSION_PRELOAD_FILE, source: `${JSON.stringify(preload, null, 2)}\n` });
    },
  };
}
