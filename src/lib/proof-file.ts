/** A stored proof as the API answers it: its bytes in base64, with its type. */
export interface ProofFileData {
  name: string;
  mime: string;
  content_base64: string;
}

/** The proof's bytes as a Blob of its own type (what the server read from its first bytes). */
export function proofBlob(file: ProofFileData): Blob {
  const binary = atob(file.content_base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type: file.mime });
}

/**
 * Opens a proof in a new tab from memory (an object URL): the file was read with the bearer token, and no
 * folder ever serves it. The URL is let go a minute later.
 */
export function openProof(file: ProofFileData) {
  const url = URL.createObjectURL(proofBlob(file));
  const opened = window.open(url, '_blank');
  if (!opened) {
    // a blocked pop-up: download it instead
    const link = document.createElement('a');
    link.href = url;
    link.download = file.name;
    link.click();
  }
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
