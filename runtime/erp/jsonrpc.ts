/**
 * @module JSON-RPC transport (`POST /jsonrpc`, every Odoo version): `common.authenticate` with the
 * technical login, then `object.execute_kw(db, uid, key, ...)`. Errors arrive with HTTP 200 in an
 * `error` member whose `data.name` is the Odoo exception class.
 */
import { ErpFault, ErpUnavailable, faultKindOf } from './erp-error';
import { createHttpClient, postToErp, type HttpClient } from './http-post';
import type { ErpCall, ErpCredentials, ErpTransport, ErpVersion } from './transport';

export class JsonRpcTransport implements ErpTransport {
  readonly name = 'jsonrpc' as const;
  private readonly http: HttpClient;
  private nextId = 1;

  constructor(baseUrl: string, private readonly database: string, private readonly login: string) {
    this.http = createHttpClient(baseUrl);
  }

  async version(deadline: AbortSignal): Promise<ErpVersion> {
    const result = (await this.rpc('common', 'version', [], deadline)) as { server_version?: unknown; server_version_info?: unknown[] };
    if (!result || typeof result.server_version !== 'string') throw new ErpUnavailable('common.version gave no server_version');
    return { major: Number(result.server_version_info?.[0] ?? parseInt(result.server_version, 10)), text: result.server_version };
  }

  async identify(key: string, deadline: AbortSignal): Promise<number | false> {
    const uid = await this.rpc('common', 'authenticate', [this.database, this.login, key, {}], deadline);
    return typeof uid === 'number' && uid > 0 ? uid : false;
  }

  call(credentials: ErpCredentials, call: ErpCall, deadline: AbortSignal): Promise<unknown> {
    const args = call.ids ? [call.ids] : [];
    return this.rpc('object', 'execute_kw', [this.database, credentials.uid, credentials.key, call.model, call.method, args, call.kwargs], deadline);
  }

  private async rpc(service: string, method: string, args: readonly unknown[], deadline: AbortSignal): Promise<unknown> {
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
