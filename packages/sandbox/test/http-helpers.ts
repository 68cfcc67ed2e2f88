/**
 * Test support for the sandbox's transports: a tiny in-test `Orm` (unit tests of the HTTP side
 * only: the real ORM is exercised by the end-to-end suites) and wire-level clients.
 */
import { DatabaseSync } from 'node:sqlite';
import { createSandboxServer, listen } from '../src/http/server';
import { ApiKeys } from '../src/security/api-keys';
import { OdooException, type Env, type MethodSpec, type OdooVersion, type Orm } from '../src/orm/types';
import { decodeMethodResponse, encodeMethodCall, type MethodResponse, type XmlRpcValue } from '@ops-data-gateway/codec';

const PARTNERS = [
  { id: 1, name: 'Aïssatou Diop', is_company: false, active: true },
  { id: 2, name: 'Bamba SARL', is_company: true, active: true },
  { id: 3, name: 'Old Partner', is_company: false, active: false },
];

const METHODS: Readonly<Record<string, MethodSpec>> = {
  search_read: {
    name: 'search_read',
    decorator: 'model',
    params: [
      { name: 'domain', required: false },
      { name: 'fields', required: false },
      { name: 'offset', required: false },
      { name: 'limit', required: false },
      { name: 'order', required: false },
      { name: 'read_kwargs', required: false, variadicKeywords: true },
    ],
  },
  search_count: {
    name: 'search_count',
    decorator: 'model',
    params: [
      { name: 'domain', required: true },
      { name: 'limit', required: false },
    ],
  },
  read: {
    name: 'read',
    decorator: 'records',
    params: [
      { name: 'fields', required: false },
      { name: 'load', required: false },
    ],
  },
  write: { name: 'write', decorator: 'records', params: [{ name: 'vals', required: true }] },
  context_get: { name: 'context_get', decorator: 'model', params: [] },
  check_access_rights: {
    name: 'check_access_rights',
    decorator: 'model',
    params: [
      { name: 'operation', required: true },
      { name: 'raise_exception', required: false },
    ],
  },
  raise_error: { name: 'raise_error', decorator: 'model', params: [{ name: 'kind', required: true }] },
  echo: { name: 'echo', decorator: 'records', params: [{ name: 'value', required: false }] },
};

/** Records what the transports hand over, and answers from a three-row `res.partner`. */
class TinyOrm implements Orm {
  readonly calls: { env: Env; model: string; method: string; ids: readonly number[] | null; positional: readonly unknown[]; named: Readonly<Record<string, unknown>> }[] = [];

  constructor(readonly version: OdooVersion) {}

  hasModel(model: string): boolean {
    return model === 'res.partner' || model === 'res.users';
  }

  lookupMethod(_model: string, method: string): MethodSpec | 'private' | undefined {
    if (method.startsWith('_')) return 'private';
    if (this.version === 19 && method === 'sudo') return 'private';
    return Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  }

  call(env: Env, model: string, method: MethodSpec, ids: readonly number[] | null, positional: readonly unknown[], named: Readonly<Record<string, unknown>>): unknown {
    this.calls.push({ env, model, method: method.name, ids, positional, named });
    const active = (rows: typeof PARTNERS) => (env.context['active_test'] === false ? rows : rows.filter((row) => row.active));
    switch (method.name) {
      case 'search_read': {
        const domain = (positional[0] ?? named['domain'] ?? []) as unknown[];
        const limit = (named['limit'] ?? positional[3]) as number | undefined;
        let rows = active(PARTNERS);
        if (domain.length > 0) rows = rows.filter((row) => row.is_company === true);
        return rows.slice(0, limit ?? rows.length).map(({ id, name }) => ({ id, name }));
      }
      case 'search_count':
        return active(PARTNERS).length;
      case 'read':
        return PARTNERS.filter((row) => ids?.includes(row.id)).map(({ id, name }) => ({ id, name }));
      case 'write':
        throw new OdooException('odoo.exceptions.AccessError', "You are not allowed to modify 'Contact' (res.partner) records.");
      case 'context_get':
        return { lang: 'en_US', tz: false, uid: env.uid };
      case 'check_access_rights':
        return null;
      case 'raise_error':
        return raiseError(String(positional[0] ?? named['kind']));
      case 'echo':
        return { ids, positional, named, context: env.context, uid: env.uid };
      default:
        throw new Error(`TinyOrm has no ${method.name}`);
    }
  }
}

function raiseError(kind: string): never {
  switch (kind) {
    case 'user':
      throw new OdooException('odoo.exceptions.UserError', 'Invalid order');
    case 'validation':
      throw new OdooException('odoo.exceptions.ValidationError', 'Bad value');
    case 'missing':
      throw new OdooException('odoo.exceptions.MissingError', 'Record does not exist or has been deleted.');
    case 'access':
      throw new OdooException('odoo.exceptions.AccessError', 'You are not allowed to access this.');
    case 'value':
      throw new OdooException('builtins.ValueError', 'Invalid field foo on model res.partner');
    default:
      throw new TypeError('a bug in the sandbox');
  }
}

export interface TestSandbox {
  readonly url: string;
  readonly orm: TinyOrm;
  readonly db: DatabaseSync;
  readonly keys: { readonly valid: string; readonly expired: string; readonly other: string; readonly archived: string; readonly scoped: string };
  /** uid of `api@example.test`, the owner of `valid` and `expired`. */
  readonly uid: number;
  readonly database: string;
  readonly errors: unknown[];
  close(): Promise<void>;
}

/** A sandbox server over the in-test ORM and an in-memory users table. */
export async function startTestSandbox(version: OdooVersion, options: { maxBodyBytes?: number } = {}): Promise<TestSandbox> {
  const db = new DatabaseSync(':memory:');
  db.exec(`CREATE TABLE res_users (id INTEGER PRIMARY KEY, login TEXT NOT NULL, active INTEGER NOT NULL);
           INSERT INTO res_users VALUES (2, 'admin', 1), (7, 'api@example.test', 1), (9, 'gone@example.test', 0);`);
  const apiKeys = new ApiKeys(db, { version });
  const keys = {
    valid: apiKeys.generateKey(7, 'valid'),
    expired: apiKeys.generateKey(7, 'expired', new Date(Date.now() - 86_400_000)),
    other: apiKeys.generateKey(2, 'admin key'),
    archived: apiKeys.generateKey(9, 'archived user'),
    scoped: apiKeys.generateKey(7, 'device key', null, 'device'),
  };
  const orm = new TinyOrm(version);
  const errors: unknown[] = [];
  const server = createSandboxServer({ orm, db, database: 'sandbox', onError: (error) => errors.push(error), ...options });
  const running = await listen(server, 0, '127.0.0.1');
  return {
    url: running.url,
    orm,
    db,
    keys,
    uid: 7,
    database: 'sandbox',
    errors,
    close: async () => {
      await running.close();
      db.close();
    },
  };
}

export async function xmlrpc(url: string, path: string, method: string, params: readonly unknown[]): Promise<MethodResponse> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml' },
    body: encodeMethodCall({ methodName: method, params: params as readonly XmlRpcValue[] }),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8');
  return decodeMethodResponse(await res.text());
}

export async function jsonrpc(url: string, service: string, method: string, args: readonly unknown[], id: unknown = 1): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}/jsonrpc`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id, params: { service, method, args } }),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return (await res.json()) as Record<string, unknown>;
}

export async function json2(
  url: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Headers; text: string; json: () => unknown }> {
  const res = await fetch(`${url}/json/2/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

export function bearer(key: string): Record<string, string> {
  return { Authorization: `Bearer ${key}` };
}
