import { useEffect } from 'react';

/** Sets the document title while the page is shown ('Dashboard · SB Portal'; see `documentTitle` in src/routes.ts). */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
