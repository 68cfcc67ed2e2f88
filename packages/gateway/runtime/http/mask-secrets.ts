/**
 * @module Foreign text on its way to the log (the path of a request no route matched, the ERP's own
 * error message) may hold what the log must never hold: a client may put its key in the URL by
 * mistake, and an ERP message may quote a record's e-mail address. What looks like either is masked.
 */

/** An API key is 40 hex characters; any long token is treated alike. Then e-mail addresses. */
const SECRET_LIKE = /[A-Za-z0-9_-]{32,}|[^\s/@'"<>()[\]{},;:]+@[^\s/@'"<>()[\]{},;:]+/g;

export function maskSecrets(text: string): string {
  return text.replace(SECRET_LIKE, '[redacted]');
}
