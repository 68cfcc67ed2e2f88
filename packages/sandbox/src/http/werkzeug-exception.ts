/**
 * @module werkzeug's HTTP exceptions, which Odoo raises for protocol-level refusals. They render
 * as werkzeug's HTML page (type='http' routes, content-type refusals) or, on JSON-2, as a JSON
 * error object carrying the description; extra headers (`WWW-Authenticate`, `Accept`, `Allow`)
 * travel either way.
 */
import type { SandboxReply } from './reply';

interface StatusInfo {
  readonly className: string;
  readonly title: string;
  readonly description: string;
}

/** werkzeug 2.x names and default descriptions. */
const STATUSES: Readonly<Record<number, StatusInfo>> = {
  400: { className: 'BadRequest', title: 'Bad Request', description: 'The browser (or proxy) sent a request that this server could not understand.' },
  401: {
    className: 'Unauthorized',
    title: 'Unauthorized',
    description:
      "The server could not verify that you are authorized to access the URL requested. You either supplied the wrong credentials (e.g. a bad password), or your browser doesn't understand how to supply the credentials required.",
  },
  403: {
    className: 'Forbidden',
    title: 'Forbidden',
    description: "You don't have the permission to access the requested resource. It is either read-protected or not readable by the server.",
  },
  404: {
    className: 'NotFound',
    title: 'Not Found',
    description: 'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.',
  },
  405: { className: 'MethodNotAllowed', title: 'Method Not Allowed', description: 'The method is not allowed for the requested URL.' },
  413: { className: 'RequestEntityTooLarge', title: 'Request Entity Too Large', description: 'The data value transmitted exceeds the capacity limit.' },
  415: { className: 'UnsupportedMediaType', title: 'Unsupported Media Type', description: 'The server does not support the media type transmitted in the request.' },
  422: { className: 'UnprocessableEntity', title: 'Unprocessable Entity', description: 'The request was well-formed but was unable to be followed due to semantic errors.' },
  500: {
    className: 'InternalServerError',
    title: 'Internal Server Error',
    description: 'The server encountered an internal error and was unable to complete your request. Either the server is overloaded or there is an error in the application.',
  },
};

export class WerkzeugException extends Error {
  readonly description: string;

  constructor(
    readonly code: number,
    description?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    const info = statusInfo(code);
    super(description ?? info.description);
    this.description = description ?? info.description;
  }

  /** "Not Found", "Unauthorized"... */
  get title(): string {
    return statusInfo(this.code).title;
  }

  /** `werkzeug.exceptions.NotFound`... as JSON-2's `name`. */
  get pythonName(): string {
    return `werkzeug.exceptions.${statusInfo(this.code).className}`;
  }
}

function statusInfo(code: number): StatusInfo {
  const info = STATUSES[code];
  if (!info) throw new Error(`no werkzeug exception for status ${code}`);
  return info;
}

/** werkzeug's `HTTPException.get_response()`: its HTML page. */
export function renderWerkzeugPage(error: WerkzeugException): SandboxReply {
  const { title } = statusInfo(error.code);
  const description = escapeHtml(error.description).replace(/\n/g, '<br>');
  const body = `<!doctype html>\n<html lang=en>\n<title>${error.code} ${escapeHtml(title)}</title>\n<h1>${escapeHtml(title)}</h1>\n<p>${description}</p>\n`;
  return { status: error.code, headers: { 'Content-Type': 'text/html; charset=utf-8', ...error.headers }, body };
}

/** markupsafe's `escape`. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;').replace(/"/g, '&#34;');
}

/** Odoo's page when no database can be selected for the request (`NOT_FOUND_NODB`, odoo/http.py). */
export const NOT_FOUND_NODB_PAGE =
  '<!DOCTYPE html>\n<title>404 Not Found</title>\n<h1>Not Found</h1>\n' +
  '<p>No database is selected and the requested URL was not found in the server-wide controllers.</p>\n' +
  '<p>Please verify the hostname, <a href=/web/login>login</a> and try again.</p>\n\n' +
  '<!-- Alternatively, use the X-Odoo-Database header. -->\n';
