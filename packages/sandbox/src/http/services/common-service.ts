/**
 * @module The `common` RPC service (odoo/service/common.py): `version`, `login`, `authenticate`,
 * `about`, `set_loglevel`. Bad credentials answer `false`, never a fault.
 */
import { PyException } from '../py-exception';
import { checkArity } from './python-calls';
import { openRegistry, type RpcContext } from './rpc-context';

export async function dispatchCommon(context: RpcContext, method: string, params: readonly unknown[]): Promise<unknown> {
  switch (method) {
    case 'version':
      checkArity('exp_version', [], 0, params.length);
      return versionInfo(context);
    case 'login': {
      checkArity('exp_login', ['db', 'login', 'password'], 3, params.length);
      const [db, login, password] = params;
      openRegistry(context, db);
      return context.credentials.authenticate(login, password);
    }
    case 'authenticate': {
      checkArity('exp_authenticate', ['db', 'login', 'password', 'user_agent_env'], 4, params.length);
      const [db, login, password] = params;
      openRegistry(context, db);
      return context.credentials.authenticate(login, password);
    }
    case 'about': {
      checkArity('exp_about', ['extended'], 0, params.length);
      const info = 'See http://openerp.com';
      return params[0] ? [info, context.traits.serverVersion] : info;
    }
    case 'set_loglevel':
      checkArity('exp_set_loglevel', ['loglevel', 'logger'], 1, params.length);
      return true;
    default:
      throw new PyException('builtins.Exception', `Method not found: ${method}`);
  }
}

/** `RPC_VERSION_1`, in Odoo's key order. */
function versionInfo(context: RpcContext): Record<string, unknown> {
  const { serverVersion, serverVersionInfo } = context.traits;
  return {
    server_version: serverVersion,
    server_version_info: [...serverVersionInfo],
    server_serie: serverVersion,
    protocol_version: 1,
  };
}
