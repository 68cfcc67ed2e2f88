/**
 * @module The gateway's only way to the ERP. It picks the transport (JSON-2 when the ERP offers it,
 * unless configured), lets through read methods only, bounds concurrent calls with a bounded wait
 * queue, puts a deadline on every call, sends identical reads in flight once (coalesce.ts) and
 * counts calls and the time waited per request (ErpStats) for the log line and `Server-Timing`; an
 * observer (metrics, traces) sees each call.
 */
import type { GatewayConfig } from '../config';
import { Coalescer, flightKey } from './coalesce';
import { deadlineAfter } from './deadline';
import { ErpBusy, ErpFault, ErpTimeout, ErpTransportMissing, ErpUnavailable } from './erp-error';
import { JSON2_SINCE, Json2Transport } from './json2';
import { bindLease, type BudgetLease } from '../admission/memory-budget';
import { bindCallHeaders, outcomeOf, type ErpCallName, type ErpCallOutcome, type ErpObserver } from './erp-observer';
import { JsonRpcTransport } from './jsonrpc';
import { Semaphore } from './semaphore';
import type { ErpCall, ErpCredentials, ErpTransport, ErpVersion } from './transport';
import type { TransportName } from '../config';
import { XmlRpcTransport } from './xmlrpc';

/**
 * The ERP methods the gateway may call: read methods and identity/permission probes. Anything else
 * is refused before it reaches the wire (a test proves no route can call another).
 */
export const ALLOWED_METHODS: ReadonlySet<string> = new Set([
  'search_read',
  'search_count',
  'read',
  // Grouped reads of the aggregate route: formatted_read_group on 19 and later, read_group before.
  'read_group',
  'formatted_read_group',
  // Change detection's check (cache/change-watch.ts): the latest writes and the count in one call (module web, 17 and later).
  'web_search_read',
  'fields_get',
  'context_get',
  'has_group',
  'has_access',
  'check_access_rights',
]);

/** The key check, named as the metrics and spans show it (JSON-2 asks `context_get`, RPC `common.authenticate`). */
const KEY_CHECK: ErpCallName = { model: 'res.users', method: 'authenticate' };

/** Per-request accounting of ERP calls, for the request's log line and `Server-Timing`. */
export class ErpStats {
  /** Calls this request sent to the ERP (`erp_calls`). */
  calls = 0;
  /** Answers this request took from a call another request had in flight (`erp_shared`): not sent again. */
  shared = 0;
  /** The request's share of the memory budget: its ERP answers are charged to it as they arrive. */
  lease: BudgetLease | undefined;
  /** Waits for the ERP open now, since when, and the time of the spans already closed. */
  private open = 0;
  private openedAt = 0;
  private closedMs = 0;

  /**
   * Wall time this request has waited for the ERP (`erp_ms`, `Server-Timing` `erp`): while at least
   * one of its waits was open, so calls in parallel (a list's page and count) count once and the
   * figure never exceeds the request's own time.
   */
  get ms(): number {
    return this.closedMs + (this.open > 0 ? performance.now() - this.openedAt : 0);
  }

  /**
   * Opens a wait for the ERP: a call from the moment it is asked for (a slot waited for included)
   * to its answer, or another request's read this one waits for. Returns its end (idempotent).
   */
  begin(): () => void {
    if (this.open++ === 0) this.openedAt = performance.now();
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      if (--this.open === 0) this.closedMs += performance.now() - this.openedAt;
    };
  }

  /** Counts the time until `pending` settles as waiting for the ERP. */
  async waitFor<T>(pending: Promise<T>): Promise<T> {
    const end = this.begin();
    try {
      return await pending;
    } finally {
      end();
    }
  }
}

export interface ErpConnection {
  readonly transport: ErpTransport;
  readonly version: ErpVersion;
}

export class ErpClient {
  private connection: Promise<ErpConnection> | undefined;
  private refused: ((refusal: ErpTransportMissing) => void) | undefined;
  private readonly semaphore: Semaphore;
  private readonly flights = new Coalescer<ErpCredentials>();

  constructor(
    private readonly config: GatewayConfig['erp'],
    /** Called with each method before it is sent; tests use it to see what reaches the ERP. */
    private readonly observe?: (call: ErpCall) => void,
    /** Metrics and traces of every call (runtime/telemetry); none when both are off. */
    private readonly observer?: ErpObserver,
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

  /**
   * Called once the ERP has answered and shown that it lacks what the configuration needs (main.ts
   * exits then, as at start-up); until the ERP answers, nothing is known and nothing is called.
   */
  onRefusal(handler: (refusal: ErpTransportMissing) => void): void {
    this.refused = handler;
  }

  /** ERP calls holding a slot, and waiting for one (metrics). */
  get load(): { readonly inFlight: number; readonly queued: number } {
    return { inFlight: this.semaphore.inFlight, queued: this.semaphore.queued };
  }

  identify(key: string, stats: ErpStats): Promise<number | false> {
    return stats.waitFor(this.connect().then(({ transport }) => this.alone(stats, transport.name, KEY_CHECK, (deadline) => transport.identify(key, deadline))));
  }

  /**
   * Every call is a read (the allow-list), so an identical one of the same account already in flight
   * is waited for instead of sent again.
   */
  async call(credentials: ErpCredentials, call: ErpCall, stats: ErpStats): Promise<unknown> {
    if (!ALLOWED_METHODS.has(call.method)) throw new Error(`ERP method '${call.method}' is not on the gateway's allow-list`);
    return stats.waitFor(this.send(credentials, call, stats));
  }

  private async send(credentials: ErpCredentials, call: ErpCall, stats: ErpStats): Promise<unknown> {
    const { transport } = await this.connect();
    const send = (deadline: AbortSignal) => {
      this.observe?.(call);
      return this.timed(stats, transport.name, call, deadline, (signal) => transport.call(credentials, call, signal));
    };
    const deadline = deadlineAfter(this.config.timeoutMs);
    const waiter = { sender: credentials, deadline: deadline.signal, lease: stats.lease };
    const shared = await this.flights.join(flightKey(credentials.uid, call), waiter, send).finally(deadline.clear);
    if (!shared.started) {
      this.observer?.coalesced();
      stats.shared++;
    }
    const { outcome } = shared;
    if (outcome.ok) {
      if (!shared.started) stats.lease?.chargeCopy(shared.answerBytes);
      return outcome.value;
    }
    // A refused key speaks of the key sent, not of the account: another key of it asks for itself.
    if (!shared.started && isKeyRefusal(outcome.error) && shared.sender.key !== credentials.key) {
      return this.alone(stats, transport.name, call, (signal) => {
        this.observe?.(call);
        return transport.call(credentials, call, signal);
      });
    }
    throw outcome.error;
  }

  /** One call of this request's own, not shared: its deadline with the request's memory lease bound to it. */
  private async alone<T>(stats: ErpStats, transport: TransportName, name: ErpCallName, run: (deadline: AbortSignal) => Promise<T>): Promise<T> {
    const deadline = deadlineAfter(this.config.timeoutMs);
    if (stats.lease) bindLease(deadline.signal, stats.lease);
    try {
      return await this.timed(stats, transport, name, deadline.signal, run);
    } finally {
      deadline.clear();
    }
  }

  /** The deadline starts before the wait for a slot: time queued counts against the ERP timeout. */
  private async timed<T>(stats: ErpStats, transport: TransportName, name: ErpCallName, deadline: AbortSignal, run: (deadline: AbortSignal) => Promise<T>): Promise<T> {
    const release = await this.semaphore
      .acquire(deadline, () => new ErpTimeout('no ERP slot freed in time'))
      .catch((error: unknown) => {
        if (error instanceof ErpBusy) this.observer?.queueFull();
        throw error;
      });
    const started = performance.now();
    const sent = this.observer?.sending(name, transport);
    if (sent?.headers) bindCallHeaders(deadline, sent.headers);
    let outcome: ErpCallOutcome = 'ok';
    try {
      return await run(deadline);
    } catch (error) {
      outcome = outcomeOf(error);
      throw error;
    } finally {
      release();
      stats.calls++;
      sent?.done(outcome, (performance.now() - started) / 1000);
    }
  }

  private async resolve(): Promise<ErpConnection> {
    const { url, database, login, transport, maxAnswerBytes } = this.config;
    const deadline = () => AbortSignal.timeout(this.config.timeoutMs);
    if (transport === 'json2' || transport === 'auto') {
      const json2 = new Json2Transport(url, database, maxAnswerBytes);
      const version = await json2.offered(deadline());
      if (version) return this.connected({ transport: json2, version });
      if (transport === 'json2')
        await this.refuseWithoutJson2(
          (erp) => `ERP_TRANSPORT=json2, but the ERP is ${erp}, which has no JSON-2 API (Odoo ${JSON2_SINCE} and later): set ERP_TRANSPORT to auto, jsonrpc or xmlrpc`,
        );
      if (!login)
        await this.refuseWithoutJson2(
          (erp) => `ERP_LOGIN is not set, but the ERP is ${erp}, which has no JSON-2 API (Odoo ${JSON2_SINCE} and later) and checks keys over RPC with a login: set ERP_LOGIN`,
        );
    }
    if (!login) throw new ErpUnavailable('ERP_LOGIN is required: the ERP offers no JSON-2, and RPC checks a key together with a login');
    const rpc = transport === 'xmlrpc' ? new XmlRpcTransport(url, database, login, maxAnswerBytes) : new JsonRpcTransport(url, database, login, maxAnswerBytes);
    return this.connected({ transport: rpc, version: await rpc.version(deadline()) });
  }

  /**
   * The ERP offers no JSON-2 where the configuration needs it. When its RPC names a version before
   * JSON-2's, that is a setting to change: ErpTransportMissing (`say` words it, given `Odoo 18.0`), and
   * the refusal handler is told. Otherwise the ERP was not understood: ErpUnavailable, asked again later.
   */
  private async refuseWithoutJson2(say: (erp: string) => string): Promise<never> {
    const { url, database, maxAnswerBytes, timeoutMs } = this.config;
    const version = await new JsonRpcTransport(url, database, '', maxAnswerBytes).version(AbortSignal.timeout(timeoutMs)).catch(() => undefined);
    if (!version || !(version.major < JSON2_SINCE)) throw new ErpUnavailable('the ERP offers no JSON-2 API (no /web/version)');
    const refusal = new ErpTransportMissing(say(`Odoo ${version.text}`));
    this.refused?.(refusal);
    throw refusal;
  }

  private connected(connection: ErpConnection): ErpConnection {
    this.observer?.connected(connection.transport.name, connection.version.text);
    return connection;
  }
}

function isKeyRefusal(error: unknown): boolean {
  return error instanceof ErpFault && error.kind === 'access_denied';
}
