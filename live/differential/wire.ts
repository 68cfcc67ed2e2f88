/**
 * @module Sending one call of the series to one side (the live ERP or the sandbox) over one
 * transport, as a plain HTTP request built here (not the gateway's client: the point is to see
 * exactly what the server answers, errors included).
 */
import { encodeMethodCall, type XmlRpcValue } from '@ops-data-gateway/codec';
import { readAnswer, type Answer, type RawReply, type Transport } from './answer';

/** The accounts the series calls as. */
export type AccountName = 'admin' | 'api' | 'noRead';
/** The keys the series calls with; `wrong` is a well-formed key nobody has. */
export type KeyName = 'admin' | 'valid' | 'forbidden' | 'expired' | 'noRead' | 'wrong';

export const WRONG_KEY = '0123456789abcdef0123456789abcdef01234567';

/** One ERP as the series sees it. */
export interface Side {
  readonly label: 'live' | 'sandbox';
  readonly url: string;
  readonly database: string;
  readonly major: number;
  readonly logins: Readonly<Record<AccountName, string>>;
  /** uid of each account (from `authenticate`), `false` when it failed. */
  readonly uids: Readonly<Record<AccountName, number | false>>;
  readonly keys: Readonly<Partial<Record<KeyName, string>>>;
}

export interface ExecuteCall {
  readonly kind: 'execute';
  readonly model: string;
  readonly method: string;
  /** Record methods: the ids (`args[0]` over RPC, `ids` over JSON-2). */
  readonly ids?: readonly number[];
  /** Keyword arguments (JSON-2 body members, `execute_kw` kwargs), `context` included. */
  readonly kwargs: Readonly<Record<string, unknown>>;
  /** Whose uid and which key (default: the administrator with his key). */
  readonly as?: AccountName;
  readonly key?: KeyName;
  /** Raw variations: another Content-Type, no Authorization header, another scheme. */
  readonly contentType?: string;
  readonly noAuthorization?: boolean;
}

interface AuthenticateCall {
  readonly kind: 'authenticate';
  readonly as: AccountName;
  readonly key: KeyName;
}

/** `common.version` over RPC, `GET /web/version` on JSON-2. */
interface VersionCall {
  readonly kind: 'version';
}

export type WireCall = ExecuteCall | AuthenticateCall | VersionCall;

const TIMEOUT_MS = 60_000;

async function post(url: string, headers: Record<string, string>, body: string | undefined, method = 'POST'): Promise<RawReply> {
  const response = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}), signal: AbortSignal.timeout(TIMEOUT_MS) });
  const replyHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    replyHeaders[name.toLowerCase()] = value;
  });
  return { status: response.status, headers: replyHeaders, text: await response.text() };
}

function keyOf(side: Side, name: KeyName): string {
  if (name === 'wrong') return WRONG_KEY;
  const key = side.keys[name];
  if (!key) throw new Error(`${side.label}: no ${name} key`);
  return key;
}

function rpcRequest(side: Side, transport: 'xmlrpc' | 'jsonrpc', service: string, method: string, args: unknown[], contentType?: string) {
  if (transport === 'xmlrpc') {
    const body = encodeMethodCall({ methodName: method, params: args as XmlRpcValue[] });
    return post(`${side.url}/xmlrpc/2/${service}`, { 'Content-Type': contentType ?? 'text/xml' }, body);
  }
  const body = JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { service, method, args } });
  return post(`${side.url}/jsonrpc`, { 'Content-Type': contentType ?? 'application/json' }, body);
}

export async function send(side: Side, transport: Transport, call: WireCall): Promise<Answer> {
  return readAnswer(call.kind === 'version' && transport === 'json2' ? 'http' : transport, await sendRaw(side, transport, call));
}

function sendRaw(side: Side, transport: Transport, call: WireCall): Promise<RawReply> {
  switch (call.kind) {
    case 'version':
      if (transport === 'json2') return post(`${side.url}/web/version`, {}, undefined, 'GET');
      return rpcRequest(side, transport, 'common', 'version', []);
    case 'authenticate':
      if (transport === 'json2') throw new Error('authenticate has no JSON-2 form');
      return rpcRequest(side, transport, 'common', 'authenticate', [side.database, side.logins[call.as], keyOf(side, call.key), {}]);
    case 'execute': {
      const key = keyOf(side, call.key ?? 'admin');
      if (transport === 'json2') {
        const headers: Record<string, string> = { 'Content-Type': call.contentType ?? 'application/json', 'X-Odoo-Database': side.database };
        if (!call.noAuthorization) headers['Authorization'] = `bearer ${key}`;
        const body = JSON.stringify({ ...(call.ids ? { ids: call.ids } : {}), ...call.kwargs });
        return post(`${side.url}/json/2/${call.model}/${call.method}`, headers, body);
      }
      const uid = side.uids[call.as ?? 'admin'];
      const args = [side.database, uid === false ? 0 : uid, key, call.model, call.method, call.ids ? [[...call.ids]] : [], call.kwargs];
      return rpcRequest(side, transport, 'object', 'execute_kw', args, call.contentType);
    }
  }
}

/** `authenticate` for the account with its own key: the uid the object calls use. */
export async function uidOf(url: string, database: string, login: string, key: string): Promise<number | false> {
  const raw = await post(
    `${url}/jsonrpc`,
    { 'Content-Type': 'application/json' },
    JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { service: 'common', method: 'authenticate', args: [database, login, key, {}] } }),
  );
  const answer = readAnswer('jsonrpc', raw);
  return answer.kind === 'result' && typeof answer.value === 'number' ? answer.value : false;
}

/** A call the mirror needs to succeed: its value, or an `Error` naming the failure. */
export async function mustCall(side: Side, call: ExecuteCall): Promise<unknown> {
  const answer = await send(side, 'jsonrpc', call);
  if (answer.kind === 'result') return answer.value;
  const why = answer.kind === 'error' ? `${answer.name ?? answer.code}: ${answer.message}` : `HTTP ${answer.status}`;
  throw new CallFailed(`${side.label}: ${call.model}.${call.method} failed: ${why}`);
}

export class CallFailed extends Error {}
