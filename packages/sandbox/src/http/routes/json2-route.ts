/**
 * @module JSON-2 (Odoo 19): `POST /json/2/<model>/<method>` with a bearer key and named arguments,
 * plus the catch-all 404 for every other request under `/json/2` (odoo-external-api.md, section 4;
 * addons/rpc/controllers/json2.py and `Json2Dispatcher` in odoo/http.py, 19.0).
 *
 * Order: database header (404 HTML), content type (415 HTML), bearer key (401), body (400), model
 * (404), method (403/404), `ids` on an `@api.model` method (422), argument binding (422), call.
 * Errors after the content-type check are JSON objects `{name, message, arguments, context, debug}`
 * with the status of their class.
 */
import { pyRepr, pyTruthy } from '../../orm/python';
import { asPyException, formatTraceback, json2Status, PyException, pyTypeName } from '../py-exception';
import { PyJsonDecodeError, dumpsJson, loadsJson } from '../python-json';
import { headerValue, htmlReply, requestMimetype, type SandboxReply, type SandboxRequest } from '../reply';
import { bindError, browseIds } from '../services/python-calls';
import type { RpcContext } from '../services/rpc-context';
import { NOT_FOUND_NODB_PAGE, WerkzeugException } from '../werkzeug-exception';
import { contentTypeRefusal } from './content-type';

const RPC_ROUTE = '/json/2/<__model__>/<__method__>';
const CATCH_ALL_ROUTE = '/json/2';
const BEARER = /^bearer\s+(.+)$/i;

export async function handleJson2(context: RpcContext, request: SandboxRequest): Promise<SandboxReply> {
  const database = headerValue(request, 'x-odoo-database');
  if (database !== undefined && database !== context.database) return htmlReply(404, NOT_FOUND_NODB_PAGE);

  const target = rpcTarget(request);
  const bodyFits = requestMimetype(request) === 'application/json' || request.body.length === 0;
  if (!bodyFits) return contentTypeRefusal(context.traits, request, target ? RPC_ROUTE : CATCH_ALL_ROUTE, 'json2', ['application/json']);

  try {
    if (!target) {
      readBody(request);
      throw new WerkzeugException(404, 'Did you mean POST /json/2/<model>/<method>?');
    }
    const uid = await authenticateBearer(context, request);
    const result = callMethod(context, uid, target.model, target.method, readBody(request));
    return json2Reply(200, result ?? null);
  } catch (error) {
    return errorReply(error, context.reportBug);
  }
}

/** `<model>/<method>` of a POST that the RPC route matches; undefined for the catch-all. */
function rpcTarget(request: SandboxRequest): { model: string; method: string } | undefined {
  if (request.method !== 'POST') return undefined;
  const segments = request.path.slice('/json/2/'.length).split('/');
  const [model, method] = segments;
  if (segments.length !== 2 || !model || !method) return undefined;
  return { model, method };
}

/** `ir.http._auth_method_bearer`: the key's user, or 401 with `WWW-Authenticate: Bearer`. */
async function authenticateBearer(context: RpcContext, request: SandboxRequest): Promise<number> {
  const challenge = { 'WWW-Authenticate': 'Bearer' };
  const token = BEARER.exec(headerValue(request, 'authorization') ?? '')?.[1];
  if (token === undefined) throw new WerkzeugException(401, 'User not authenticated, use an API Key with a Bearer Authorization header.', challenge);
  const uid = await context.credentials.bearerUser(token);
  if (uid === undefined) throw new WerkzeugException(401, 'Invalid apikey', challenge);
  return uid;
}

/** The named arguments: a JSON object body; an empty body or another JSON value means none. */
function readBody(request: SandboxRequest): Record<string, unknown> {
  if (request.body.length === 0) return {};
  let body: unknown;
  try {
    body = loadsJson(request.body.toString('utf8'));
  } catch (error) {
    if (error instanceof PyJsonDecodeError) throw new WerkzeugException(400, `could not parse the body as json: ${error.message}`);
    throw error;
  }
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** `web_json_2_rpc(__model__, __method__, ids=(), context=frozendict(), **kwargs)`. */
function callMethod(context: RpcContext, uid: number, model: string, method: string, body: Record<string, unknown>): unknown {
  const { orm } = context;
  // Path arguments are merged over the body (`jsonrequest | args`): body keys `__model__` and
  // `__method__` never reach the method.
  const { ids = [], context: callContext = {}, __model__: _model, __method__: _method, ...named } = body;
  if (!orm.hasModel(model)) throw new WerkzeugException(404, `the model ${pyRepr(model)} does not exist`);
  if (typeof callContext !== 'object' || callContext === null || Array.isArray(callContext)) {
    throw new PyException('builtins.TypeError', `'${pyTypeName(callContext)}' object is not iterable`);
  }
  const spec = orm.lookupMethod(model, method);
  if (spec === 'private') throw new PyException('odoo.exceptions.AccessError', context.traits.privateMethodMessage(model, method));
  if (spec === undefined) throw new WerkzeugException(404, context.traits.missingMethodMessage(model, method));
  if (spec.decorator === 'model' && pyTruthy(ids)) throw new WerkzeugException(422, `cannot call ${model}.${method} with ids`);
  const records = spec.decorator === 'records' ? browseIds(ids) : null;
  const unbound = bindError(spec, named);
  if (unbound !== undefined) throw new WerkzeugException(422, unbound);
  return orm.call({ uid, context: callContext as Record<string, unknown> }, model, spec, records, [], named);
}

/** `Json2Dispatcher.handle_error`. */
function errorReply(error: unknown, reportBug: (error: unknown) => void): SandboxReply {
  if (error instanceof WerkzeugException) {
    const debug = formatTraceback(new PyException(error.pythonName, `${error.code} ${error.title}: ${error.description}`));
    const body = { name: error.pythonName, message: error.description, arguments: [error.description, error.code], context: {}, debug };
    return json2Reply(error.code, body, error.headers);
  }
  const exception = asPyException(error, reportBug);
  const body = { name: exception.pythonName, message: exception.message, arguments: exception.pyArgs, context: {}, debug: formatTraceback(exception) };
  return json2Reply(json2Status(exception), body);
}

function json2Reply(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): SandboxReply {
  return { status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers }, body: dumpsJson(body) };
}
