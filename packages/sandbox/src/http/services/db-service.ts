/**
 * @module The `db` RPC service, reduced to its read-only questions about the one database. The
 * management methods need the master password, which the sandbox has none of: `AccessDenied`,
 * as Odoo's `check_super` answers a wrong one.
 */
import { accessDenied, keyError } from '../py-exception';
import { checkArity } from './python-calls';
import type { RpcContext } from './rpc-context';

const MANAGEMENT_METHODS: ReadonlySet<string> = new Set([
  'create_database',
  'duplicate_database',
  'drop',
  'dump',
  'restore',
  'rename',
  'change_admin_password',
  'migrate_databases',
  'list_countries',
]);

export async function dispatchDb(context: RpcContext, method: string, params: readonly unknown[]): Promise<unknown> {
  switch (method) {
    case 'list':
      checkArity('exp_list', ['document'], 0, params.length);
      return [context.database];
    case 'db_exist':
      checkArity('exp_db_exist', ['db_name'], 1, params.length);
      return params[0] === context.database;
    case 'server_version':
      checkArity('exp_server_version', [], 0, params.length);
      return context.traits.serverVersion;
    case 'list_lang':
      checkArity('exp_list_lang', [], 0, params.length);
      return [['en_US', 'English (US)']];
    default:
      if (MANAGEMENT_METHODS.has(method)) throw accessDenied();
      throw keyError(`Method not found: ${method}`);
  }
}
