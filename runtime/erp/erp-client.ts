/**
 * @module The gateway's only way to the ERP. It picks the transport (JSON-2 when the ERP offers it,
 * unless configured), lets through read methods only, bounds concurrent calls with a bounded wait
 * queue, puts a deadline on every call and counts calls and time per request for the log line.
 */
import type { GatewayConfig } from '../config';
import { ErpTimeout, ErpUnavailable } from './erp-error';
import { Json2Transport } from './json2';
import { bindLease, type BudgetLease } from './memory-budget';
import { JsonRpcTransport } from './jsonrpc';
import { Semaphore } from './semaphore';
import type { ErpCall, ErpCredentials, ErpTransport, ErpVersion } from './transport';
import { XmlRpcTransport } from './xmlrpc';

/**
 * The ERP methods the gateway may call: read methods and identity/permission probes. Anything else
 * is refused before it reaches the wire (a test proves no route can call another).
 */
export const ALLOWED_METHODS: ReadonlySet<string> = new Set(['search_read', 'search_count', 'read', 'fields_get', 'context_get', 'has_group', 'has_access', 'check_access_rights']);

/** Per-request accounting of ERP calls, for the request's log line. */
export class ErpStats {
  calls = 0;
  ms = 0;
  /** The request's share of the memory budget: its ERP answers are charged to it as they arrive. */
  lease: BudgetLease | undefined;
}

export interface ErpConnection {
  readonly transport: ErpTransport;
  readonly version: ErpVersion;
}

export class ErpClient {
  private connection: Promise<ErpConnection> | undefined;
  private readonly semaphore: Semaphore;

  constructor(
    private readonly config: GatewayConfig['erp'],
    /** Called with each method before it is sent; tests use it to see what reaches the ERP. */
    private readonly observe?: (call: ErpCall) => void,
  ) {
    this.semaphore = new Semaphore(config.maxConcurrency, config.maxQueue);
  }

  /** The transport and the ERP version, found on first use and again after a failure. */
  connect(): Promise<ErpConnection> {
    if (!this.connection) {
      this.connection = this.resolve().catch((error: unknown) => {
        this.connection = undefined;
        throw error;
      });
    }
    return this.connection;
  }

  async identify(key: string, stats: ErpStats): Promise<number | false> {
    const { transport } = await this.connect();
    return this.timed(stats, (deadline) => transport.identify(key, deadline));
  }

  async call(credentials: ErpCredentials, call: ErpCall, stats: ErpStats): Promise<unknown> {
    if (!ALLOWED_METHODS.has(call.method)) throw new Error(`ERP method '${call.method}' is not on the gateway's allow-list`);
    const { transport } = await this.connect();
    this.observe?.(call);
    return this.timed(stats, (deadline) => transport.call(credentials, call, deadline));
  }

  /** The deadline starts before the wait for a slot: time queued counts against the ERP timeout. */
  private async timed<T>(stats: ErpStats, run: (deadline: AbortSignal) => Promise<T>): Promise<T> {
    const deadline = AbortSignal.timeout(this.config.timeoutMs);
    if (stats.lease) bindLease(deadline, stats.lease);
    const release = await this.semaphore.acquire(deadline, () => new ErpTimeout('no ERP slot freed in time'));
    const started = performance.now();
    try {
      return await run(deadline);
    } finally {
      release();
      stats.calls++;
      stats.ms += performance.now() - started;
    }
  }

  private async resolve(): Promise<ErpConnection> {
    const { url, database, login, transport, maxAnswerBytes } = this.config;
    const deadline = () => AbortSignal.timeout(this.config.timeoutMs);
    if (transport === 'json2' || transport === 'auto') {
      const json2 = new Json2Transport(url, database, maxAnswerBytes);
      const version = transport === 'json2' ? await json2.version(deadline()) : await json2.offered(deadline());
      if (version) return { transport: json2, version };
    }
    if (!login) throw new ErpUnavailable('ERP_LOGIN is required: the ERP offers no JSON-2, and RPC checks a key together with a login');
    const rpc = transport === 'xmlrpc' ? new XmlRpcTransport(url, database, login, maxAnswerBytes) : new JsonRpcTransport(url, database, login, maxAnswerBytes);
    return { transport: rpc, version: await rpc.version(deadline()) };
  }
}
