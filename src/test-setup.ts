import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { forgetCachedSession } from '../openapi/auth-cookies';

// jsdom has no window.matchMedia, which Chartist (the charts, src/ui/bar-chart-draw.ts) requires: no media query
// matches here
if (typeof window !== 'undefined' && !window.matchMedia) {
  window.matchMedia = (media: string) =>
    ({
      matches: false,
      media,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

afterEach(() => {
  cleanup();
  document.cookie.split(';').forEach((c) => {
    const name = c.split('=')[0]?.trim();
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
  // the cookies changed behind the session store's back: it reads them again
  forgetCachedSession();
  localStorage.clear();
  sessionStorage.clear();
});
