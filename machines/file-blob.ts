/** A file the server answers as base64 in JSON (an export, a zip of tickets) as a Blob of its own type. */
export const blobOf = ({ content_base64, mime }: { content_base64: string; mime: string }) =>
  new Blob([Uint8Array.from(atob(content_base64), (c) => c.charCodeAt(0))], { type: mime });
