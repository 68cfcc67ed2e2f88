/**
 * @module The request and reply values the sandbox's route handlers exchange. Handlers are plain
 * async functions from a fully read request to a reply; only `server.ts` touches node:http.
 */
import type { IncomingHttpHeaders } from 'node:http';

export interface SandboxRequest {
  readonly method: string;
  /** Percent-decoded path without the query string (WSGI's `PATH_INFO`, which Odoo routes on). */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface SandboxReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
}

/** The media type of the request without parameters, lower-cased (werkzeug's `mimetype`). */
export function requestMimetype(request: SandboxRequest): string {
  const contentType = request.headers['content-type'] ?? '';
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** One header's value (the first, when repeated). */
export function headerValue(request: SandboxRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function htmlReply(status: number, body: string, headers: Readonly<Record<string, string>> = {}): SandboxReply {
  return { status, headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers }, body };
}
