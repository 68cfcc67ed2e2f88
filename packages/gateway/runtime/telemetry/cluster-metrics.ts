/**
 * @module Metrics with WORKERS=N: one exposition for the whole gateway. Each worker counts in its own
 * registry; the primary alone listens on METRICS_PORT and, per scrape, asks every worker for its
 * numbers over the cluster's IPC channel and adds them up (prom-client's AggregatorRegistry: counters
 * and histograms summed; gauges summed unless they say otherwise, e.g. build info and drift taken at
 * their maximum). Without this each worker would listen on the shared port in turn, and a scrape would
 * see one worker's counters at random: counters going down between scrapes, rates meaningless.
 *
 * Loaded only when METRICS_PORT is set, as metrics.ts is (prom-client costs memory).
 */
import type { Server } from 'node:http';
import { AggregatorRegistry } from 'prom-client';
import type { GatewayMetrics } from './metrics';
import { createMetricsServer } from './metrics-server';

/**
 * In a worker: answers the primary's requests for this worker's metrics.
 * @public (main.ts loads this module with require, which knip does not follow)
 */
export function answerPrimary(metrics: GatewayMetrics): void {
  AggregatorRegistry.setRegistries([metrics.registry]);
  // Constructing one is what installs the worker's IPC listener (prom-client's design).
  new AggregatorRegistry();
}

/**
 * In the primary: the metrics listener, each scrape the sum of every live worker's numbers.
 * @public (loaded with require by main.ts)
 */
export function createClusterMetricsServer(): Server {
  const aggregator = new AggregatorRegistry();
  return createMetricsServer({
    scrape: async () => ({ body: await aggregator.clusterMetrics(), contentType: aggregator.contentType }),
  });
}
