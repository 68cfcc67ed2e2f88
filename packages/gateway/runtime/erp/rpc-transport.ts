/**
 * @module What the two legacy transports (XML-RPC, JSON-RPC) share: the `common` and `object`
 * services, `authenticate` with the technical login, and `execute_kw(db, uid, key, ...)`. Each
 * subclass only says how one service call travels on its wire.
 */
import { ErpUnavailable } from './erp-error';
import { createHttpClient, type HttpClient } from './http-post';
import type { ErpCall, ErpCredentials, ErpTransport, ErpVersion } from './transport';

export abstract class RpcTransport implements ErpTransport {
  abstract readonly name: 'jsonrpc' | 'xmlrpc';
  protected readonly http: HttpClient;

  constructor(
    baseUrl: string,
    private readonly database: string,
    private readonly login: string,
    maxAnswerBytes?: number,
  ) {
    this.http = createHttpClient(baseUrl, maxAnswerBytes);
  }

  /** One call of `service.method(*args)`; errors become ErpFault / ErpUnavailable / ErpTimeout. */
  protected abstract rpc(service: string, method: string, args: readonly unknown[], deadline: AbortSignal): Promise<unknown>;

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
}
