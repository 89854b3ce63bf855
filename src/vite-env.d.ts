/// <reference types="vite/client" />

/** True in development and e2e builds: pages for people and tests (the UI gallery at /dev/ui), never in production. */
declare const __DEV_PAGES__: boolean;
