/**
 * @module `dispatch_rpc(service, method, params)` (odoo/http.py): the one entry point both legacy
 * transports share. An unknown service is the `KeyError` of Odoo's service table.
 */
import { keyError } from '../py-exception';
import { dispatchCommon } from './common-service';
import { dispatchDb } from './db-service';
import { dispatchObject } from './object-service';
import type { RpcContext } from './rpc-context';

export async function dispatchRpc(context: RpcContext, service: string, method: string, params: readonly unknown[]): Promise<unknown> {
  switch (service) {
    case 'common':
      return dispatchCommon(context, method, params);
    case 'db':
      return dispatchDb(context, method, params);
    case 'object':
      return dispatchObject(context, method, params);
    default:
      throw keyError(service);
  }
}
