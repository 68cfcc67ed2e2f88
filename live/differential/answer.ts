/**
 * @module What an ERP answered, reduced to what the differential check compares: a result, a
 * protocol error (fault, JSON-RPC `error`, JSON-2 error object) or a bare HTTP answer (an HTML
 * page). Pure functions from raw HTTP replies, so that both sides go through the same reading and
 * the unit tests need no server.
 */
import { decodeMethodResponse, XmlRpcDateTime } from '@ops-data-gateway/codec';

export type Transport = 'json2' | 'jsonrpc' | 'xmlrpc';

/** One HTTP reply as received (header names lower-cased). */
export interface RawReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

export type Answer =
  | {
      readonly kind: 'result';
      readonly status: number;
      readonly value: unknown;
      /** JSON-RPC: the `result` member was left out (the method returned `None`). */
      readonly absent?: true;
    }
  | {
      readonly kind: 'error';
      readonly status: number;
      /** XML-RPC `faultCode` or JSON-RPC `error.code`. */
      readonly code?: number | string;
      /** JSON-RPC `error.message` ("Odoo Server Error"). */
      readonly title?: string;
      /** Exception class (`data.name`, JSON-2 `name`); XML-RPC has none. */
      readonly name?: string;
      /** Message; for tracebacks, their last line (the frames are never comparable). */
      readonly message: string;
      readonly arguments?: unknown;
      /** `WWW-Authenticate`, lower-cased and trimmed (werkzeug versions differ in case and spacing). */
      readonly wwwAuthenticate?: string;
    }
  | {
      /** Not an answer of the protocol: an HTML or plain-text page (415, 404 without database...). */
      readonly kind: 'http';
      readonly status: number;
      readonly contentType: string;
      readonly accept?: string;
      /** The page's text without markup, whitespace collapsed. */
      readonly text: string;
    };

/**
 * A PostgreSQL error's quote of the query (`LINE 1: SELECT "purchase_order"."state", COUNT(*), SUM(…`
 * and the caret under it) is Odoo's SQL text, which the sandbox does not write: left out on both
 * sides, like traceback frames; the error's first line and its HINT are compared.
 */
function withoutSqlQuote(text: string): string {
  return text.replace(/^LINE \d+: .*\n *\^ *\n/m, '');
}

/** A traceback's last line (`ValueError: Invalid field ...`); other text as is. */
export function lastTracebackLine(raw: string): string {
  const text = withoutSqlQuote(raw);
  if (!text.startsWith('Traceback (most recent call last)')) return text;
  const lines = text.trimEnd().split('\n');
  // The exception line is the first one after the last indented frame line.
  let i = lines.length - 1;
  while (i > 0 && !/^\s/.test(lines[i - 1] ?? '')) i--;
  return lines.slice(i).join('\n');
}

/**
 * An AccessError lists the groups that would grant the right, or says that none does: that is the
 * database's security configuration, which the mirror does not copy (the sandbox keeps its own
 * groups), so either form becomes one placeholder; the rest of the message is compared.
 */
export function withoutGroupList(message: string): string {
  return message
    .replace(/This operation is allowed for the following groups:\n(?:\t- [^\n]*\n?)+/, '<groups that allow this>\n')
    .replace(/No group currently allows this operation\.\n/, '<groups that allow this>\n');
}

/** Odoo's plain-text or HTML error pages, as text. */
function pageText(text: string): string {
  return text
    .replace(/<title>[\s\S]*?<\/title>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

function groupless(args: unknown): unknown {
  return Array.isArray(args) ? args.map((a) => (typeof a === 'string' ? withoutGroupList(withoutSqlQuote(a)) : a)) : args;
}

function mainType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

function httpAnswer(raw: RawReply): Answer {
  return {
    kind: 'http',
    status: raw.status,
    contentType: mainType(raw.headers['content-type']),
    ...(raw.headers['accept'] ? { accept: raw.headers['accept'] } : {}),
    text: pageText(raw.text),
  };
}

/** XML-RPC dates come back as strings from Odoo; a `dateTime.iso8601` would be kept as its text. */
function plainXmlValue(value: unknown): unknown {
  if (value instanceof XmlRpcDateTime) return { 'dateTime.iso8601': value.iso };
  if (value instanceof Uint8Array) return { base64: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return value.map(plainXmlValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainXmlValue(v)]));
  }
  return value;
}

export function readXmlRpc(raw: RawReply): Answer {
  if (raw.status !== 200 || !raw.text.includes('<methodResponse')) return httpAnswer(raw);
  const response = decodeMethodResponse(raw.text);
  if (response.kind === 'params') return { kind: 'result', status: raw.status, value: plainXmlValue(response.value) };
  return { kind: 'error', status: raw.status, code: response.faultCode, message: withoutGroupList(lastTracebackLine(response.faultString)) };
}

export function readJsonRpc(raw: RawReply): Answer {
  let body: unknown;
  try {
    body = JSON.parse(raw.text);
  } catch {
    return httpAnswer(raw);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return httpAnswer(raw);
  const envelope = body as { result?: unknown; error?: { code?: number; message?: string; data?: Record<string, unknown> } };
  if (envelope.error) {
    const data = envelope.error.data ?? {};
    return {
      kind: 'error',
      status: raw.status,
      ...(envelope.error.code !== undefined ? { code: envelope.error.code } : {}),
      ...(envelope.error.message !== undefined ? { title: envelope.error.message } : {}),
      ...(typeof data['name'] === 'string' ? { name: data['name'] } : {}),
      message: withoutGroupList(lastTracebackLine(String(data['message'] ?? ''))),
      ...(data['arguments'] !== undefined ? { arguments: groupless(data['arguments']) } : {}),
    };
  }
  if (!('result' in envelope)) return { kind: 'result', status: raw.status, value: null, absent: true };
  return { kind: 'result', status: raw.status, value: envelope.result };
}

export function readJson2(raw: RawReply): Answer {
  if (mainType(raw.headers['content-type']) !== 'application/json') return httpAnswer(raw);
  let body: unknown;
  try {
    body = JSON.parse(raw.text);
  } catch {
    return httpAnswer(raw);
  }
  if (raw.status === 200) return { kind: 'result', status: 200, value: body };
  const error = (body && typeof body === 'object' ? body : { message: body }) as Record<string, unknown>;
  const www = raw.headers['www-authenticate'];
  return {
    kind: 'error',
    status: raw.status,
    ...(typeof error['name'] === 'string' ? { name: error['name'] } : {}),
    message: withoutGroupList(lastTracebackLine(String(error['message'] ?? ''))),
    ...(error['arguments'] !== undefined ? { arguments: groupless(error['arguments']) } : {}),
    ...(www !== undefined ? { wwwAuthenticate: www.trim().toLowerCase() } : {}),
  };
}

export function readAnswer(transport: Transport | 'http', raw: RawReply): Answer {
  switch (transport) {
    case 'xmlrpc':
      return readXmlRpc(raw);
    case 'jsonrpc':
      return readJsonRpc(raw);
    case 'json2':
      return readJson2(raw);
    default: {
      let value: unknown;
      try {
        value = JSON.parse(raw.text);
      } catch {
        return httpAnswer(raw);
      }
      return raw.status === 200 ? { kind: 'result', status: 200, value } : httpAnswer(raw);
    }
  }
}
