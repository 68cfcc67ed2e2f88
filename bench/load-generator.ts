/**
 * @module The benchmark's load generator, run in its own process: autocannon drives the requests,
 * and every response time is kept at full precision (autocannon's own histogram rounds to whole
 * milliseconds, too coarse for sub-millisecond overheads). A "pair" run sends two requests in turn
 * on one connection and reports each pair's summed time: the direct equivalent of a gateway request
 * that makes two ERP calls, which the single-threaded sandbox serves one after the other anyway.
 *
 * Input: one JSON argument (LoadSpec). Output: one JSON line (LoadResult).
 */
import autocannon from 'autocannon';

export interface LoadRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface LoadSpec {
  readonly origin: string;
  readonly requests: readonly LoadRequest[];
  readonly connections: number;
  /** Seconds to run, or... */
  readonly duration?: number;
  /** ...requests to send. */
  readonly amount?: number;
  /** Sum consecutive response times by groups of `requests.length` (connections must be 1). */
  readonly pair?: boolean;
}

export interface LoadResult {
  readonly requests: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
  readonly statuses: Record<string, number>;
  readonly errors: number;
  readonly seconds: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

async function main(spec: LoadSpec): Promise<LoadResult> {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  const started = performance.now();
  const instance = autocannon({
    url: spec.origin,
    connections: spec.connections,
    ...(spec.duration ? { duration: spec.duration } : {}),
    ...(spec.amount ? { amount: spec.amount } : {}),
    requests: spec.requests.map((r) => ({ method: r.method, path: r.path, headers: r.headers ?? {}, ...(r.body ? { body: r.body } : {}) })),
  });
  (instance as unknown as NodeJS.EventEmitter).on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    times.push(responseTime);
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  });
  const result = await instance;
  const seconds = (performance.now() - started) / 1000;
  let samples = times;
  if (spec.pair) {
    const group = spec.requests.length;
    samples = [];
    for (let i = 0; i + group <= times.length; i += group) samples.push(times.slice(i, i + group).reduce((a, b) => a + b, 0));
  }
  const sorted = Float64Array.from(samples).sort();
  return {
    requests: samples.length,
    rps: samples.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length),
    statuses,
    errors: result.errors + result.timeouts,
    seconds,
  };
}

if (require.main === module) {
  main(JSON.parse(process.argv[2] as string) as LoadSpec).then(
    (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
    (error: unknown) => {
      process.stderr.write(`load generator: ${String(error)}\n`);
      process.exit(1);
    },
  );
}
