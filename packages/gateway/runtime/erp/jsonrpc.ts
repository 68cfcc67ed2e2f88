/**
 * @module JSON-RPC transport (`POST /jsonrpc`, every Odoo version): `common.authenticate` with the
 * technical login, then `object.execute_kw(db, uid, key, ...)`. Errors arrive with HTTP 200 in an
 * `error` member whose `data.name` is the Odoo exception class.
 */
import { ErpFault, ErpUnavailable, faultKindOf } from './erp-error';
import { postToErp } from './http-post';
import { RpcTransport } from './rpc-transport';

export class JsonRpcTransport extends RpcTransport {
  readonly name = 'jsonrpc' as const;
  private nextId = 1;

  protected async rpc(service: string, method: string, args: readonly unknown[], deadline: AbortSignal): Promise<unknown> {
    const id = this.nextId++;
    const answer = await postToErp(
      this.http,
      '/jsonrpc',
      JSON.stringify({ jsonrpc: '2.0', method: 'call', id, params: { service, method, args } }),
      { 'Content-Type': 'application/json' },
      deadline,
    );
    let body: { result?: unknown; error?: { message?: unknown; data?: { name?: unknown; message?: unknown } } };
    try {
      body = JSON.parse(answer.body) as typeof body;
    } catch {
      throw new ErpUnavailable(`JSON-RPC answer is not JSON (HTTP ${answer.status})`);
    }
    if (answer.status !== 200 || typeof body !== 'object' || body === null) throw new ErpUnavailable(`JSON-RPC HTTP ${answer.status}`);
    if (body.error) {
      const name = typeof body.error.data?.name === 'string' ? body.error.data.name : 'builtins.Exception';
      const message = typeof body.error.data?.message === 'string' ? body.error.data.message : String(body.error.message ?? '');
      throw new ErpFault(faultKindOf(name), name, message);
    }
    // Odoo leaves `result` out when the method returned None.
    return 'result' in body ? body.result : null;
  }
}
