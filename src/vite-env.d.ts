/// <reference types="vite/client" />

/** True in development and e2e builds: pages for people and tests (the UI gallery at /dev/ui), never in production. */
declare const __DEV_PAGES__: boolean;

/** The day (YYYY-MM-DD) of the commit the app was built from: the accessibility statement's date. */
declare const __LAST_CHECKED__: string;

/** The operations a seller's API token may call, from openapi/portal.yaml at build time (scripts/seller-api-reference.ts). */
declare module 'virtual:seller-api-reference' {
  const operations: import('../scripts/seller-api-reference').ReferenceOperation[];
  export default operations;
}
