/**
 * A notification's link is a path inside the portal: one leading slash, not `//` or `/\` (which a browser reads as
 * another host), printable ASCII only, at most 200 characters. The server refuses to store anything else and the
 * browser refuses to follow anything else, so a bad row can never send a user off the portal.
 */
export const isPortalPath = (link: string) => /^\/(?![/\\])[\x21-\x7e]*$/.test(link) && link.length <= 200;
