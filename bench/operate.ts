/**
 * @module What operating the gateway costs (`make bench`, section "operate"; issue 18): the access
 * log, metrics and traces on and off, and compression's CPU against the bytes it saves. Every variant
 * is a gateway whose ERP answers come from memory (bench/memo-erp.ts), so its CPU per request is its
 * own cost and not that of waiting for the sandbox; the variants are measured one after the other,
 * twice over in alternation, so that machine drift shows as a spread rather than a difference.
 */
import { get } from 'node:http';
import { compress } from '@ops-data-gateway/gateway/runtime/http/compression';
import type { LoadRequest } from './load-generator';
import { startService, type Service } from './processes';
import { freePort } from '../tests/support/free-port';

interface OperateRow {
  readonly id: string;
  readonly title: string;
  readonly cpuMsPerRequest: number;
  readonly p50: number;
  /** Bytes of the answer as sent (compression rows). */
  readonly bytes?: number;
}

export interface OperateResult {
  readonly rows: readonly OperateRow[];
  /** One-time cost of compressing the documents at the strongest setting, in ms. */
  readonly documents: readonly { readonly path: string; readonly identity: number; readonly br: number; readonly gzip: number; readonly brMs: number; readonly gzipMs: number }[];
}

type Measure = (id: string, title: string, gateway: Service, request: LoadRequest) => Promise<{ cpuMsPerRequest: number; p50: number }>;
type GatewayStarter = (erpUrl: string, extra?: Record<string, string>) => Promise<Service>;

/** The bytes of one answer as sent, and the body itself, decoded by nobody. */
function fetchRaw(origin: string, request: LoadRequest): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get(`${origin}${request.path}`, { headers: request.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks)));
    }).on('error', reject);
  });
}

export async function measureOperate(sandboxUrl: string, startGateway: GatewayStarter, measure: Measure, list: LoadRequest, rounds = 2): Promise<OperateResult> {
  const memoPort = await freePort();
  const sinkPort = await freePort();
  const memo = await startService('bench/memo-erp.js', [String(memoPort), sandboxUrl], {}, `http://127.0.0.1:${memoPort}`, /memo erp listening/);
  const sink = await startService('bench/otlp-sink.js', [String(sinkPort)], {}, `http://127.0.0.1:${sinkPort}`, /otlp sink listening/);
  const services: Service[] = [memo, sink];
  const started = async (extra: Record<string, string>) => {
    const gateway = await startGateway(memo.url, extra);
    services.push(gateway);
    return gateway;
  };
  try {
    const variants = [
      ['log-off', 'access log off (LOG_LEVEL=warn), no metrics, no traces; request ids always on', { LOG_LEVEL: 'warn' }],
      ['log', 'access log (LOG_LEVEL=info, the default), no metrics, no traces', {}],
      ['metrics', 'access log and metrics (METRICS_PORT set)', { METRICS_PORT: String(await freePort()) }],
      [
        'traces',
        'access log, metrics and traces (OTEL_EXPORTER_OTLP_ENDPOINT set, exported to a local receiver)',
        { METRICS_PORT: String(await freePort()), OTEL_EXPORTER_OTLP_ENDPOINT: sink.url },
      ],
    ] as const;
    const gateways = new Map<string, Service>();
    for (const [id, , extra] of variants) gateways.set(id, await started(extra));
    const samples = new Map<string, { cpu: number[]; p50: number[] }>();
    for (let round = 0; round < rounds; round++)
      for (const [id, title] of variants) {
        const result = await measure(id, title, gateways.get(id) as Service, list);
        const sample = samples.get(id) ?? { cpu: [], p50: [] };
        sample.cpu.push(result.cpuMsPerRequest);
        sample.p50.push(result.p50);
        samples.set(id, sample);
      }
    const rows: OperateRow[] = variants.map(([id, title]) => {
      const sample = samples.get(id) as { cpu: number[]; p50: number[] };
      return { id, title: `${title} (rounds: ${sample.cpu.map((c) => c.toFixed(3)).join(', ')} ms)`, cpuMsPerRequest: mean(sample.cpu), p50: mean(sample.p50) };
    });

    // Compression: the default gateway, the same list as 50 and 200 records, per Accept-Encoding.
    const plain = gateways.get('log') as Service;
    const page200: LoadRequest = { ...list, path: list.path.replace('limit=50', 'limit=200') };
    for (const [name, page] of [
      ['50', list],
      ['200', page200],
    ] as const)
      for (const coding of ['identity', 'gzip', 'br']) {
        const request = { ...page, headers: { ...page.headers, 'Accept-Encoding': coding } };
        const bytes = (await fetchRaw(plain.url, request)).length;
        const result = await measure(`${name}-${coding}`, '', plain, request);
        rows.push({ id: `page-${name}-${coding}`, title: `${name}-record page, Accept-Encoding: ${coding}`, cpuMsPerRequest: result.cpuMsPerRequest, p50: result.p50, bytes });
      }
    const documents: OperateResult['documents'][number][] = [];
    for (const path of ['/api/openapi.json', '/api/docs', '/api/llms.txt']) {
      const body = await fetchRaw(plain.url, { method: 'GET', path, headers: { 'Accept-Encoding': 'identity' } });
      const timed = async (coding: 'br' | 'gzip') => {
        const at = performance.now();
        const out = await compress(body, coding, 'best');
        return { bytes: out.length, ms: performance.now() - at };
      };
      const [br, gzip] = [await timed('br'), await timed('gzip')];
      documents.push({ path, identity: body.length, br: br.bytes, gzip: gzip.bytes, brMs: br.ms, gzipMs: gzip.ms });
      for (const coding of ['identity', 'br']) {
        const request: LoadRequest = { method: 'GET', path, headers: { 'Accept-Encoding': coding } };
        const result = await measure(`doc-${coding}`, '', plain, request);
        rows.push({
          id: `doc${path}-${coding}`,
          title: `${path}, Accept-Encoding: ${coding}`,
          cpuMsPerRequest: result.cpuMsPerRequest,
          p50: result.p50,
          bytes: (await fetchRaw(plain.url, request)).length,
        });
      }
    }
    return { rows, documents };
  } finally {
    await Promise.all(services.map((service) => service.stop()));
  }
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
}

export function operateMarkdown(result: OperateResult): string {
  const f = (n: number | undefined, digits = 3) => (n === undefined ? '' : n.toFixed(digits));
  const by = (id: string) => result.rows.find((r) => r.id === id);
  const lines = [
    '## Operating it: access log, metrics, traces, compression',
    '',
    "Scenario 2 (`stock/pickings`, limit=50, total=false) on gateways whose ERP answers come from memory: CPU per request is the gateway's own.",
    '',
    '| Variant | CPU ms/req | p50 ms | Bytes sent |',
    '| --- | ---: | ---: | ---: |',
    ...result.rows.map((r) => `| ${r.title} | ${f(r.cpuMsPerRequest)} | ${f(r.p50, 2)} | ${r.bytes ?? ''} |`),
    '',
    '| Document | identity bytes | br bytes (once, ms) | gzip bytes (once, ms) |',
    '| --- | ---: | ---: | ---: |',
    ...result.documents.map((d) => `| ${d.path} | ${d.identity} | ${d.br} (${f(d.brMs, 1)}) | ${d.gzip} (${f(d.gzipMs, 1)}) |`),
    '',
  ];
  const delta = (a: string, b: string) => f((by(a)?.cpuMsPerRequest ?? 0) - (by(b)?.cpuMsPerRequest ?? 0));
  lines.push(
    `Access log: ${delta('log', 'log-off')} ms/req; metrics: ${delta('metrics', 'log')} ms/req; traces: ${delta('traces', 'metrics')} ms/req; compression of a 200-record page: gzip ${delta('page-200-gzip', 'page-200-identity')} ms, brotli ${delta('page-200-br', 'page-200-identity')} ms.`,
    '',
  );
  return lines.join('\n');
}
