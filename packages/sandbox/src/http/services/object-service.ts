/**
 * @module The `object` RPC service (odoo/service/model.py): `execute(db, uid, password, model,
 * method, *args)` and `execute_kw(db, uid, password, model, method, args, kwargs?)`, with each
 * version's order of checks (odoo-external-api.md, section 2.2):
 *
 * - 19: unpack, `int(uid)`, empty password, database, service method name, credentials, model,
 *   public method;
 * - 17/18: unpack, `int(uid)`, database, empty password and credentials, service method name,
 *   then (18 only) the private-name rule `^(_.*|init)$` before the model, the model, the method.
 */
import { pyTruthy } from '../../orm/python';
import { accessDenied, PyException, pyTypeName } from '../py-exception';
import { PRIVATE_NAME_18 } from '../version-traits';
import { asKwargs, browseIds, checkArity, pyInt, splitContext } from './python-calls';
import { openRegistry, type RpcContext } from './rpc-context';

interface ModelCall {
  readonly uid: number;
  readonly model: string;
  readonly method: string;
  readonly args: unknown;
  readonly kwargs: Record<string, unknown>;
}

export async function dispatchObject(context: RpcContext, service: string, params: readonly unknown[]): Promise<unknown> {
  const call = context.traits.methodNameBeforeCredentials ? await unpackChecked19(context, service, params) : await unpackChecked17(context, service, params);
  return callModel(context, call);
}

async function unpackChecked19(context: RpcContext, service: string, params: readonly unknown[]): Promise<ModelCall> {
  if (params.length < 5) throw new PyException('builtins.ValueError', `not enough values to unpack (expected at least 5, got ${params.length})`);
  const [db, rawUid, password, model, method, ...rest] = params;
  const uid = pyInt(rawUid);
  if (!pyTruthy(password)) throw accessDenied();
  openRegistry(context, db);
  const { args, kwargs } = serviceArguments19(service, rest);
  if (!(await context.credentials.checkUid(uid, password))) throw accessDenied();
  return { uid, model: String(model), method: String(method), args, kwargs };
}

/** 19's `execute` takes every argument positionally; `execute_kw` takes `(args)` or `(args, kw)`. */
function serviceArguments19(service: string, rest: readonly unknown[]): { args: unknown; kwargs: Record<string, unknown> } {
  if (service === 'execute') return { args: [...rest], kwargs: {} };
  if (service !== 'execute_kw') throw new PyException('builtins.NameError', `Method not available ${service}`);
  if (rest.length === 0) throw new PyException('builtins.ValueError', 'not enough values to unpack (expected 2, got 0)');
  if (rest.length > 2) throw new PyException('builtins.ValueError', 'too many values to unpack (expected 2)');
  return { args: rest[0], kwargs: asKwargs(rest[1]) };
}

async function unpackChecked17(context: RpcContext, service: string, params: readonly unknown[]): Promise<ModelCall> {
  if (params.length < 3) throw new PyException('builtins.IndexError', 'tuple index out of range');
  const [db, rawUid, password] = params;
  const uid = pyInt(rawUid);
  openRegistry(context, db);
  if (!pyTruthy(password) || !(await context.credentials.checkUid(uid, password))) throw accessDenied();
  const rest = params.slice(3);
  let call: ModelCall;
  if (service === 'execute') {
    // execute(db, uid, obj, method, *args): only a minimum.
    if (rest.length < 2) checkArity('execute', ['db', 'uid', 'obj', 'method'], 4, rest.length + 2);
    call = { uid, model: String(rest[0]), method: String(rest[1]), args: rest.slice(2), kwargs: {} };
  } else if (service === 'execute_kw') {
    checkArity('execute_kw', ['db', 'uid', 'obj', 'method', 'args', 'kw'], 5, rest.length + 2);
    call = { uid, model: String(rest[0]), method: String(rest[1]), args: rest[2], kwargs: asKwargs(rest[3]) };
  } else {
    throw new PyException('builtins.NameError', `Method not available ${service}`);
  }
  if (context.traits.privateNameBeforeModel && PRIVATE_NAME_18.test(call.method)) {
    throw new PyException('odoo.exceptions.AccessError', context.traits.privateMethodMessage(call.model, call.method));
  }
  return call;
}

/** `execute_cr` + `call_kw`: model, public method, recordset, context, call. */
function callModel(context: RpcContext, call: ModelCall): unknown {
  const { orm, traits } = context;
  if (!orm.hasModel(call.model)) throw new PyException('odoo.exceptions.UserError', `Object ${call.model} doesn't exist`);
  const spec = orm.lookupMethod(call.model, call.method);
  if (spec === 'private') throw new PyException('odoo.exceptions.AccessError', traits.privateMethodMessage(call.model, call.method));
  if (spec === undefined) throw new PyException('builtins.AttributeError', traits.missingMethodMessage(call.model, call.method));

  const args = call.args;
  if (!Array.isArray(args)) {
    if (spec.decorator === 'records') throw new PyException('builtins.TypeError', `'${pyTypeName(args)}' object is not subscriptable`);
    throw new PyException('builtins.TypeError', `${call.model}.${call.method}() argument after * must be an iterable, not ${pyTypeName(args)}`);
  }
  let ids: number[] | null = null;
  let positional: readonly unknown[] = args;
  if (spec.decorator === 'records') {
    if (args.length === 0) throw new PyException('builtins.IndexError', traits.emptyArgsMessage);
    ids = browseIds(args[0]);
    positional = args.slice(1);
  }
  const { context: callContext, named } = splitContext(call.kwargs);
  return orm.call({ uid: call.uid, context: callContext }, call.model, spec, ids, positional, named);
}
