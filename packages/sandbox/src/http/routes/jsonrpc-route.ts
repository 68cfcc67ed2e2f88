/**
 * @module JSON-RPC: `/jsonrpc` (`type='json'` route, `jsonrpc` in 19), answering
 * `{"jsonrpc": "2.0", "id": …, "result" | "error": …}` with HTTP 200 once the body is JSON
 * (odoo-external-api.md, section 3). Before that: the content-type refusal (400, or 19's 415) and
 * the 400 answers for a body that is not JSON or not a JSON object.
 */
import { asPyException, formatTraceback, PyException, pyTypeName } from '../py-exception';
import { PyJsonDecodeError, dumpsJson, loadsJson } from '../python-json';
import { htmlReply, requestMimetype, type SandboxReply, type SandboxRequest } from '../reply';
import { dispatchRpc } from '../services/dispatch-rpc';
import { checkArity } from '../services/python-calls';
import type { RpcContext } from '../services/rpc-context';
import { contentTypeRefusal } from './content-type';

const JSONRPC_MIMETYPES = ['application/json', 'application/json-rpc'];

export async function handleJsonRpc(context: RpcContext, request: SandboxRequest): Promise<SandboxReply> {
  if (!JSONRPC_MIMETYPES.includes(requestMimetype(request))) {
    return contentTypeRefusal(context.traits, request, '/jsonrpc', context.traits.jsonRouteType, JSONRPC_MIMETYPES);
  }
  let envelope: unknown;
  try {
    envelope = loadsJson(request.body.toString('utf8'));
  } catch (error) {
    if (error instanceof PyJsonDecodeError) return htmlReply(400, 'Invalid JSON data');
    throw error;
  }
  // `jsonrequest.get('id')`: anything without `.get` is refused before any dispatch.
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) return htmlReply(400, 'Invalid JSON-RPC data');
  const { id = null, params = {} } = envelope as { id?: unknown; params?: unknown };

  try {
    const { service, method, args } = endpointArguments(params);
    const result = await dispatchRpc(context, service, method, args);
    return jsonRpcReply({ jsonrpc: '2.0', id, ...(result === null || result === undefined ? {} : { result }) });
  } catch (error) {
    return jsonRpcReply({ jsonrpc: '2.0', id, error: errorObject(context, asPyException(error, context.reportBug)) });
  }
}

/** `jsonrpc(self, service, method, args)` bound from `params` (other keys are ignored, as Odoo does). */
function endpointArguments(params: unknown): { service: string; method: string; args: readonly unknown[] } {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new PyException('builtins.TypeError', `'${pyTypeName(params)}' object is not iterable`);
  }
  const bound = params as Record<string, unknown>;
  const missing = ['service', 'method', 'args'].filter((name) => !Object.hasOwn(bound, name));
  if (missing.length > 0) checkArity('jsonrpc', missing, missing.length, 0);
  const { service, method, args } = bound;
  if (!Array.isArray(args)) throw new PyException('builtins.TypeError', `dispatch() argument after * must be an iterable, not ${pyTypeName(args)}`);
  return { service: String(service), method: String(method), args };
}

/** `JsonRPCDispatcher.handle_error` + `serialize_exception`. */
function errorObject(context: RpcContext, error: PyException): Record<string, unknown> {
  return {
    code: context.traits.jsonRpcErrorCode,
    message: 'Odoo Server Error',
    data: { name: error.pythonName, message: error.message, arguments: error.pyArgs, context: {}, debug: formatTraceback(error) },
  };
}

function jsonRpcReply(payload: Record<string, unknown>): SandboxReply {
  return { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: dumpsJson(payload) };
}
