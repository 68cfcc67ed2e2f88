/**
 * @module The gateway's query-string parser (Express's "query parser"): the same shape as Node's
 * (`key=value` pairs, a repeated key gives an array), but input that cannot be used is never altered.
 * Node's parser stops at 1,000 parameters and drops the rest without a word (a filter placed after
 * padding would be ignored and more records come back), and turns invalid UTF-8 into U+FFFD; a NUL
 * or another control character would reach the ERP, where each transport does something else with it
 * (XML-RPC strips it, PostgreSQL refuses it). Here the first such problem is recorded on the parsed
 * object under `QUERY_PROBLEM`, for the handlers to answer before the ERP is asked (after the
 * checks of parameter names, so an unknown parameter is a 400 whatever its value):
 * - more than MAX_QUERY_PARAMS parameters: 400 `bad_request` naming the limit;
 * - invalid percent-encoding or UTF-8, or a C0 control character or DEL in a value: 422
 *   `invalid_value` naming the parameter. Tab is allowed: it is text every transport carries intact.
 */
import { badRequest, invalidValue, type GatewayError } from '../errors';

/** Far more than any resource's filters and common parameters together (the largest has under 30). */
export const MAX_QUERY_PARAMS = 100;

const QUERY_PROBLEM: unique symbol = Symbol('query problem');

export type ParsedQuery = Record<string, string | string[]> & { [QUERY_PROBLEM]?: GatewayError };

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing these characters is the point.
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
/** A parameter name fit to quote in an error message. */
const PRINTABLE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export function parseQueryString(text: string | null | undefined): ParsedQuery {
  const query = Object.create(null) as ParsedQuery;
  if (!text) return query;
  let count = 0;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    if (++count > MAX_QUERY_PARAMS) {
      query[QUERY_PROBLEM] = badRequest(`Too many query parameters: at most ${MAX_QUERY_PARAMS} are accepted.`);
      return query;
    }
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const decodedKey = decode(rawKey);
    const value = decode(eq < 0 ? '' : pair.slice(eq + 1));
    if (decodedKey === undefined) query[QUERY_PROBLEM] ??= invalidValue('A query parameter name is not valid percent-encoded UTF-8.');
    const key = decodedKey ?? rawKey;
    const name = PRINTABLE_NAME.test(key) ? `'${key}'` : 'a query parameter';
    if (value === undefined) query[QUERY_PROBLEM] ??= invalidValue(`The value of ${name} is not valid percent-encoded UTF-8.`);
    else if (CONTROL.test(value)) query[QUERY_PROBLEM] ??= invalidValue(`The value of ${name} contains a control character.`);
    // Kept undecoded when it cannot be decoded, so that the checks of names and shapes still see
    // every parameter (an unknown one stays a 400); the problem is thrown before any value is used.
    addValue(query, key, value ?? pair.slice(eq + 1));
  }
  return query;
}

function addValue(query: ParsedQuery, key: string, value: string): void {
  const seen = query[key];
  if (seen === undefined) query[key] = value;
  else if (Array.isArray(seen)) seen.push(value);
  else query[key] = [seen, value];
}

/** `+` is a space, then percent-decoding as UTF-8; undefined when that is not possible. */
function decode(raw: string): string | undefined {
  const text = raw.includes('+') ? raw.replace(/\+/g, ' ') : raw;
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Throws when the parser stopped at MAX_QUERY_PARAMS: nothing after that point was read. */
export function assertCountedQuery(query: ParsedQuery): void {
  const problem = query[QUERY_PROBLEM];
  if (problem?.code === 'bad_request') throw problem;
}

/** Throws the problem the parser recorded, if any: before any value is used (once every key is known to be accepted). */
export function assertUsableQuery(query: ParsedQuery): void {
  const problem = query[QUERY_PROBLEM];
  if (problem) throw problem;
}
