/**
 * @module The gateway's Prometheus metrics (prom-client), on a registry of their own (never the
 * process-wide default: two gateways in one process, as in the tests, keep their numbers apart).
 * Served only on the metrics listener (metrics-server.ts), never on the public port.
 *
 * Every label has a bounded set of values: route templates (`/api/v1/fleet/trips/{id}`; a path no
 * route serves is `(no route)`), methods, statuses, transports, catalogue models and allow-listed ERP
 * methods, outcomes and drift kinds. No id, key, query value or raw path ever becomes a label.
 *
 * docs/operating.md "Operating it" lists the same names and labels; a test compares that list with what
 * `/metrics` exposes, so neither can drift from the other.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TransportName } from '../config';
import { DRIFT_KINDS } from '../drift/drift-problem';
import type { ErpCallOutcome } from '../erp/erp-observer';
import type { CacheOutcome } from '../request/request-context';
import { CACHE_OUTCOMES } from '../request/request-context';

/** What the gauges read when Prometheus scrapes (nothing is updated on the request path for them). */
export interface MetricSources {
  readonly erpLoad: () => { readonly inFlight: number; readonly queued: number };
  readonly memoryBudget: { readonly inUse: number; readonly limitBytes: number };
  readonly driftProblems: () => readonly { readonly kind: string }[];
  readonly build: { readonly version: string; readonly catalogueHash: string };
}

/** Seconds; a data request is about a millisecond of gateway time plus the ERP's, which the top buckets bound. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const MISNAMED_DEFAULTS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

const METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type AuthFailureReason = 'unauthorized' | 'forbidden' | 'rate_limited';

export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'route' | 'method' | 'status'>;
  private readonly erpCalls: Histogram<'transport' | 'model' | 'method' | 'outcome'>;
  private readonly erpCoalesced: Counter;
  private readonly erpQueueFull: Counter;
  /**
   * Data answers by cache outcome, counted as each data request finishes from the outcome the cache
   * set on its context (`setCacheOutcome`): `off` until a response cache sets another.
   */
  private readonly cacheAnswers: Counter<'outcome'>;
  /**
   * Requests refused by a per-key rate limit (429). A rate limiter counts its refusals here.
   * @public
   */
  readonly rateLimitRefusals: Counter;
  private readonly authCache: Counter<'outcome'>;
  private readonly authFailures: Counter<'reason'>;
  private erp: { transport: string; version: string } = { transport: 'unknown', version: 'unknown' };

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    // Gauges named like counters, which Prometheus's linter (promtool check metrics) rejects; the same
    // numbers stay as nodejs_active_handles, nodejs_active_requests and nodejs_active_resources.
    for (const name of MISNAMED_DEFAULTS) this.registry.removeSingleMetric(name);
    this.requests = new Histogram({
      name: 'odg_http_request_duration_seconds',
      help: 'HTTP requests by route template, method and status: time from arrival to the last byte handed to the socket.',
      labelNames: ['route', 'method', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.erpCalls = new Histogram({
      name: 'odg_erp_call_duration_seconds',
      help: 'ERP calls sent, by transport, model, method and outcome (ok, a fault kind, timeout, unavailable, refused): time holding an ERP slot.',
      labelNames: ['transport', 'model', 'method', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'odg_erp_calls_in_flight',
      help: 'ERP calls holding a slot now (at most ERP_MAX_CONCURRENCY).',
      registers,
      collect() {
        this.set(sources.erpLoad().inFlight);
      },
    });
    new Gauge({
      name: 'odg_erp_calls_queued',
      help: 'ERP calls waiting for a slot now (at most ERP_MAX_QUEUE).',
      registers,
      collect() {
        this.set(sources.erpLoad().queued);
      },
    });
    this.erpQueueFull = new Counter({ name: 'odg_erp_queue_full_total', help: 'ERP calls refused at once because ERP_MAX_QUEUE calls were already waiting (503).', registers });
    this.erpCoalesced = new Counter({
      name: 'odg_erp_calls_coalesced_total',
      help: 'ERP answers a request took from an identical call already in flight instead of sending its own.',
      registers,
    });
    new Gauge({
      name: 'odg_memory_budget_used_bytes',
      help: 'Bytes charged to the memory budget now: ERP answers in flight (each byte three times), MCP tool answers held (ten times), the in-memory response cache.',
      registers,
      collect() {
        this.set(sources.memoryBudget.inUse);
      },
    });
    new Gauge({ name: 'odg_memory_budget_limit_bytes', help: 'The memory budget (MEMORY_BUDGET_BYTES).', registers }).set(sources.memoryBudget.limitBytes);
    this.cacheAnswers = new Counter({
      name: 'odg_cache_answers_total',
      help: 'Data answers by response cache outcome (hit, miss, stale, bypass, off).',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of CACHE_OUTCOMES) this.cacheAnswers.inc({ outcome }, 0);
    this.rateLimitRefusals = new Counter({ name: 'odg_rate_limit_refusals_total', help: 'Requests refused by a per-key rate limit (429).', registers });
    this.authCache = new Counter({
      name: 'odg_auth_cache_lookups_total',
      help: 'API key checks answered from the authentication cache (hit) or sent to the ERP (miss).',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['hit', 'miss']) this.authCache.inc({ outcome }, 0);
    this.authFailures = new Counter({
      name: 'odg_auth_failures_total',
      help: 'Requests refused by authentication: unauthorized (401), forbidden (403: not in the API group), rate_limited (429: too many failures or key checks).',
      labelNames: ['reason'],
      registers,
    });
    for (const reason of ['unauthorized', 'forbidden', 'rate_limited']) this.authFailures.inc({ reason }, 0);
    new Gauge({
      name: 'odg_drift_problems',
      help: 'Catalogue drift problems known now (start-up check and learned from ERP errors), by kind.',
      labelNames: ['kind'],
      registers,
      // With WORKERS, every worker knows the same drift: the primary's sum would count it N times.
      aggregator: 'max',
      collect() {
        const counts = new Map<string, number>(Object.keys(DRIFT_KINDS).map((kind) => [kind, 0]));
        for (const problem of sources.driftProblems()) counts.set(problem.kind, (counts.get(problem.kind) ?? 0) + 1);
        for (const [kind, count] of counts) this.set({ kind }, count);
      },
    });
    const erp = () => this.erp;
    new Gauge({
      name: 'odg_build_info',
      help: 'Always 1: the gateway version, the hash of its compiled catalogue, the ERP transport and the ERP version (unknown until the ERP has answered).',
      labelNames: ['version', 'catalogue_hash', 'transport', 'erp_version'],
      registers,
      aggregator: 'max',
      collect() {
        this.reset();
        this.set({ version: sources.build.version, catalogue_hash: sources.build.catalogueHash, transport: erp().transport, erp_version: erp().version }, 1);
      },
    });
  }

  requestDone(route: string, method: string, status: number, seconds: number): void {
    this.requests.observe({ route, method: METHODS.has(method) ? method : 'OTHER', status: String(status) }, seconds);
  }

  cacheAnswer(outcome: CacheOutcome): void {
    this.cacheAnswers.inc({ outcome });
  }

  erpCallDone(transport: TransportName, model: string, method: string, outcome: ErpCallOutcome, seconds: number): void {
    this.erpCalls.observe({ transport, model, method, outcome }, seconds);
  }

  erpCallCoalesced(): void {
    this.erpCoalesced.inc();
  }

  erpQueueWasFull(): void {
    this.erpQueueFull.inc();
  }

  erpConnected(transport: TransportName, version: string): void {
    this.erp = { transport, version: version.slice(0, 32) };
  }

  authCacheLookup(hit: boolean): void {
    this.authCache.inc({ outcome: hit ? 'hit' : 'miss' });
  }

  authFailure(reason: AuthFailureReason): void {
    this.authFailures.inc({ reason });
  }

  /** The exposition text and its content type, for one scrape. */
  async scrape(): Promise<{ readonly body: string; readonly contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
