/**
 * @module Metrics with WORKERS=N: one exposition for the whole gateway. Each worker counts in its own
 * registry; the primary alone listens on METRICS_PORT and, per scrape, asks every worker for its
 * numbers over the cluster's IPC channel and adds them up (prom-client's AggregatorRegistry.aggregate:
 * counters and histograms summed; gauges summed unless they say otherwise, e.g. build info and drift
 * taken at their maximum). Without this each worker would listen on the shared port in turn, and a
 * scrape would see one worker's counters at random: counters going down between scrapes, rates
 * meaningless.
 *
 * A worker that dies takes its counters with it, and the replacement starts from zero: the sum would
 * go down, which Prometheus reads as a counter reset (a rate spike, an increase counted twice). So the
 * primary keeps each worker's numbers from its last answer and, when the worker exits, adds its
 * counters and histograms (never its gauges: what it held in flight or in memory is gone) to those of
 * every worker that died before: each scrape is the live workers' numbers plus the dead workers' last
 * counts, and a counter never goes down. What a worker counted after the last scrape before its death
 * is lost (at most one scrape interval of one worker). A worker that does not answer within
 * ANSWER_LIMIT_MS is counted by its last answer too. One exposition rather than per-worker series:
 * dashboards and alerts keep reading the gateway's counters as one, and no series appears for each
 * worker started again.
 *
 * The primary and its workers speak their own two messages (prom-client's cluster requests are not
 * used: its primary waits 5 s and fails the whole scrape when a worker dies in between).
 *
 * Loaded only when METRICS_PORT is set, as metrics.ts is (prom-client costs memory).
 */
import cluster, { type Worker } from 'node:cluster';
import type { Server } from 'node:http';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { GatewayMetrics } from './metrics';
import { createMetricsServer } from './metrics-server';

/** One worker's numbers, as `registry.getMetricsAsJSON()` gives them. */
type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;
type MetricJson = MetricsJson[number];

const REQUEST = 'odg:metrics-request';
const ANSWER = 'odg:metrics-answer';
/** How long a scrape waits for a worker; past it, the worker's last answer stands in for it. */
const ANSWER_LIMIT_MS = 2000;
/** Metrics that only go up: a dead worker's are kept. */
const MONOTONIC = new Set(['counter', 'histogram']);

interface MetricsMessage {
  readonly type: typeof REQUEST | typeof ANSWER;
  readonly id: number;
  readonly metrics?: MetricsJson;
}

const isMessage = (message: unknown, type: MetricsMessage['type']): message is MetricsMessage =>
  typeof message === 'object' && message !== null && (message as MetricsMessage).type === type;

/**
 * In a worker: answers the primary's requests for this worker's metrics.
 * @public (main.ts loads this module with require, which knip does not follow)
 */
export function answerPrimary(metrics: GatewayMetrics): void {
  process.on('message', (message: unknown) => {
    if (!isMessage(message, REQUEST)) return;
    metrics.registry.getMetricsAsJSON().then(
      (json) => process.send?.({ type: ANSWER, id: message.id, metrics: json }),
      // No answer: the primary counts this worker by its last one.
      () => undefined,
    );
  });
}

/**
 * In the primary: the metrics listener, each scrape the sum of every live worker's numbers and of
 * the dead workers' last counts.
 * @public (loaded with require by main.ts)
 */
export function createClusterMetricsServer(): Server {
  const sum = new ClusterSum();
  return createMetricsServer({ scrape: () => sum.scrape() });
}

class ClusterSum {
  /** Each live worker's numbers at its last answer. */
  private readonly last = new Map<number, MetricsJson>();
  /** The counters and histograms of every worker that has exited, summed, as of each one's last answer. */
  private retired: MetricsJson = [];
  /** The highest value each counter and histogram series has been exposed with (see neverLower). */
  private readonly exposed = new Map<string, number>();
  private nextId = 0;
  private readonly waiting = new Map<string, (metrics: MetricsJson | undefined) => void>();

  constructor() {
    cluster.on('message', (worker: Worker, message: unknown) => {
      if (isMessage(message, ANSWER)) this.waiting.get(`${message.id}:${worker.id}`)?.(message.metrics);
    });
    cluster.on('exit', (worker: Worker) => this.retire(worker.id));
  }

  async scrape(): Promise<{ body: string; contentType: string }> {
    const id = this.nextId++;
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker?.isConnected() === true);
    const answers = await Promise.all(workers.map((worker) => this.ask(worker, id)));
    workers.forEach((worker, i) => {
      const answer = answers[i];
      // Not after its exit: its numbers are the retired ones by now.
      if (answer && !worker.isDead()) this.last.set(worker.id, answer);
    });
    // Read at once, with no wait in between: each worker is either live (here) or retired, never both.
    const summed = await AggregatorRegistry.aggregate([...this.last.values(), this.retired]).getMetricsAsJSON();
    const registry = AggregatorRegistry.aggregate([this.neverLower(summed)]);
    return { body: await registry.metrics(), contentType: registry.contentType };
  }

  /**
   * Each counter and histogram series at least as high as it was last exposed. The same numbers added
   * in another order (a dead worker's moving from the live ones to the retired sum) may round the last
   * bit of a float sum down (a `_sum` of seconds 1.3885447290000041, then ...040), and any decrease is
   * a counter reset to Prometheus: a rate spike. Integers (counts, buckets) never round.
   */
  private neverLower(metrics: MetricsJson): MetricsJson {
    for (const metric of metrics) {
      if (!MONOTONIC.has(String(metric.type))) continue;
      for (const value of metric.values) {
        const key = `${metric.name}\u0000${seriesKey(value)}`;
        value.value = Math.max(value.value, this.exposed.get(key) ?? value.value);
        this.exposed.set(key, value.value);
      }
    }
    return metrics;
  }

  private ask(worker: Worker, id: number): Promise<MetricsJson | undefined> {
    const key = `${id}:${worker.id}`;
    return new Promise((resolve) => {
      const done = (metrics: MetricsJson | undefined) => {
        clearTimeout(timer);
        worker.off('exit', gone);
        this.waiting.delete(key);
        resolve(metrics);
      };
      const gone = () => done(undefined);
      const timer = setTimeout(gone, ANSWER_LIMIT_MS);
      this.waiting.set(key, done);
      worker.once('exit', gone);
      try {
        worker.send({ type: REQUEST, id });
      } catch {
        gone();
      }
    });
  }

  /** A worker exited: its last counters and histograms join the dead workers' sum. */
  private retire(workerId: number): void {
    const last = this.last.get(workerId);
    this.last.delete(workerId);
    if (last)
      this.retired = addUp(
        this.retired,
        last.filter((metric) => MONOTONIC.has(String(metric.type))),
      );
  }
}

/** `a` plus `b`, metric by metric and series by series (the name, the labels and, for histograms, which of bucket, sum or count). */
function addUp(a: MetricsJson, b: MetricsJson): MetricsJson {
  const byName = new Map<string, MetricJson>(a.map((metric) => [metric.name, { ...metric, values: metric.values.map((value) => ({ ...value })) }]));
  for (const metric of b) {
    const into = byName.get(metric.name);
    if (!into) {
      byName.set(metric.name, { ...metric, values: metric.values.map((value) => ({ ...value })) });
      continue;
    }
    const series = new Map(into.values.map((value) => [seriesKey(value), value]));
    for (const value of metric.values) {
      const same = series.get(seriesKey(value));
      if (same) same.value += value.value;
      else into.values.push({ ...value });
    }
  }
  return [...byName.values()];
}

function seriesKey(value: MetricJson['values'][number]): string {
  const labels = Object.entries(value.labels).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return JSON.stringify([(value as { metricName?: string }).metricName ?? '', labels]);
}
