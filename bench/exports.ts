/**
 * @module The export part of the benchmark: a whole `stock/pickings` export (CSV, then NDJSON)
 * streamed from the gateway and read to the end, against the direct ERP paging the gateway itself
 * does (JSON-2 `search_read` by id keyset, the same fields and page size), with the gateway's RSS
 * sampled throughout; then a client that leaves halfway, with the ERP calls counted on the ERP's
 * side of the wire (a counting proxy in front of the sandbox) after it left.
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { ERP_CONTEXT, exportPageRequest } from '@ops-data-gateway/gateway/runtime/erp-requests';
import { cpuSeconds, memory, type Service } from './processes';
import { RESOURCE, parseListQuery } from './scenarios';

/** The gateway's default export page (EXPORT_PAGE_SIZE). */
const PAGE_SIZE = 1000;
const RSS_SAMPLE_MS = 100;

interface ExportRun {
  readonly label: string;
  readonly rows: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
  /** Gateway CPU (user + system) per row, in µs: what the gateway adds, whatever else the machine runs. */
  readonly cpuUsPerRow?: number;
  /** Gateway RSS: before, highest sampled, and at the end. */
  readonly rss?: { readonly beforeMb: number; readonly peakMb: number; readonly afterMb: number };
}

interface DisconnectRun {
  /** Pages a whole export reads. */
  readonly pages: number;
  /** `search_read` calls the ERP received: when the client left, 2 s later, 4 s later. */
  readonly readsWhenLeft: number;
  readonly readsAfter2s: number;
  readonly readsAfter4s: number;
}

export interface ExportBench {
  readonly runs: readonly ExportRun[];
  readonly disconnect: DisconnectRun;
}

type GatewayStarter = (erpUrl: string, extra?: Record<string, string>) => Promise<Service>;

export async function benchExports(sandboxUrl: string, key: string, database: string, startGateway: GatewayStarter): Promise<ExportBench> {
  const counter = await startCountingProxy(sandboxUrl);
  const gateway = await startGateway(counter.url);
  try {
    const pid = gateway.process.pid as number;
    const runs: ExportRun[] = [];
    for (const format of ['csv', 'ndjson'] as const) runs.push(await streamed(`gateway, ${format}`, gateway.url, `/api/v1/${RESOURCE.path}?format=${format}`, key, pid));
    // Compressed as the client accepts (Accept-Encoding): bytes on the wire, rows counted once decompressed by the client.
    for (const format of ['csv', 'ndjson'] as const)
      for (const coding of ['gzip', 'br'] as const)
        runs.push(await streamed(`gateway, ${format}, ${coding}`, gateway.url, `/api/v1/${RESOURCE.path}?format=${format}`, key, pid, coding));
    // Typed (Parquet): rows as X-Total-Count announced (a binary file has no lines to count).
    runs.push(await streamed('gateway, parquet', gateway.url, `/api/v1/${RESOURCE.path}?format=parquet`, key, pid));
    // The export a sync compares its ids with to find deleted records (README).
    runs.push(await streamed('gateway, csv of ids only (fields=id)', gateway.url, `/api/v1/${RESOURCE.path}?format=csv&fields=id`, key, pid));
    runs.push(await directPaging(sandboxUrl, key, database));
    const disconnect = await leaveHalfway(gateway.url, key, counter, runs[0]?.rows ?? 0);
    return { runs, disconnect };
  } finally {
    await gateway.stop();
    await counter.close();
  }
}

/** Reads a whole export, counting rows (line ends, after decompression) and bytes (on the wire), sampling the gateway's RSS. */
async function streamed(label: string, origin: string, path: string, key: string, pid: number, coding?: 'gzip' | 'br'): Promise<ExportRun> {
  const beforeMb = memory(pid).rssMb;
  let peakMb = beforeMb;
  const sampler = setInterval(() => {
    peakMb = Math.max(peakMb, memory(pid).rssMb);
  }, RSS_SAMPLE_MS);
  const started = performance.now();
  const cpuBefore = cpuSeconds(pid);
  try {
    const { lines, bytes, announced } = await new Promise<{ lines: number; bytes: number; announced: number }>((resolve, reject) => {
      const headers = { Authorization: `Bearer ${key}`, ...(coding ? { 'Accept-Encoding': coding } : {}) };
      const req = httpRequest(`${origin}${path}`, { headers }, (res: IncomingMessage) => {
        if (res.statusCode !== 200) return reject(new Error(`${path}: ${res.statusCode}`));
        if (res.headers['content-encoding'] !== coding) return reject(new Error(`${path}: sent ${res.headers['content-encoding']}, asked ${coding}`));
        let count = 0;
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
        });
        const text: Readable = coding === 'gzip' ? res.pipe(createGunzip()) : coding === 'br' ? res.pipe(createBrotliDecompress()) : res;
        text.on('data', (chunk: Buffer) => {
          for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) count++;
        });
        text.on('end', () => resolve({ lines: count, bytes: size, announced: Number(res.headers['x-total-count']) }));
        text.on('error', reject);
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    const seconds = (performance.now() - started) / 1000;
    const rows = path.includes('format=parquet') ? announced : path.includes('format=csv') ? lines - 1 : lines;
    const cpuUsPerRow = ((cpuSeconds(pid) - cpuBefore) * 1e6) / Math.max(1, rows);
    return { label, rows, bytes, seconds, rowsPerSecond: rows / seconds, cpuUsPerRow, rss: { beforeMb, peakMb: Math.max(peakMb, memory(pid).rssMb), afterMb: memory(pid).rssMb } };
  } finally {
    clearInterval(sampler);
  }
}

/** The ERP paging an export does, sent directly: what the gateway adds is the rest. */
async function directPaging(erpUrl: string, key: string, database: string): Promise<ExportRun> {
  const query = parseListQuery({});
  const started = performance.now();
  let rows = 0;
  let bytes = 0;
  for (let afterId = 0; ; ) {
    const page = exportPageRequest(RESOURCE, query, afterId, PAGE_SIZE);
    const text = await post(`${erpUrl}/json/2/${RESOURCE.model}/search_read`, key, database, JSON.stringify({ ...page, context: ERP_CONTEXT }));
    bytes += Buffer.byteLength(text);
    const records = JSON.parse(text) as { id: number }[];
    rows += records.length;
    if (records.length < PAGE_SIZE) break;
    afterId = (records[records.length - 1] as { id: number }).id;
  }
  const seconds = (performance.now() - started) / 1000;
  return { label: 'direct ERP paging (JSON-2 search_read, id keyset, 1,000 a page)', rows, bytes, seconds, rowsPerSecond: rows / seconds };
}

/** Starts a CSV export, reads about half of it, hangs up, then counts the ERP reads that follow. */
async function leaveHalfway(origin: string, key: string, counter: CountingProxy, rows: number): Promise<DisconnectRun> {
  counter.reset();
  const half = Math.floor(rows / 2);
  await new Promise<void>((resolve, reject) => {
    const req = httpRequest(`${origin}/api/v1/${RESOURCE.path}?format=csv`, { headers: { Authorization: `Bearer ${key}` } }, (res) => {
      let count = 0;
      res.on('data', (chunk: Buffer) => {
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) count++;
        if (count >= half) {
          req.destroy();
          resolve();
        }
      });
    });
    req.on('error', () => undefined);
    req.once('error', reject);
    req.end();
  });
  const readsWhenLeft = counter.reads;
  const wait = () => new Promise((resolve) => setTimeout(resolve, 2000));
  await wait();
  const readsAfter2s = counter.reads;
  await wait();
  return { pages: Math.ceil(rows / PAGE_SIZE), readsWhenLeft, readsAfter2s, readsAfter4s: counter.reads };
}

interface CountingProxy {
  readonly url: string;
  /** `search_read` calls forwarded since the last reset. */
  readonly reads: number;
  reset(): void;
  close(): Promise<void>;
}

/** Forwards everything to the sandbox, counting `search_read` calls: the ERP's side of the wire. */
function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  let reads = 0;
  const server = createServer((req, res) => {
    if (req.url?.endsWith('/search_read')) reads++;
    const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        get reads() {
          return reads;
        },
        reset: () => {
          reads = 0;
        },
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

function post(url: string, key: string, database: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { Authorization: `bearer ${key}`, 'X-Odoo-Database': database, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`ERP ${res.statusCode}`))));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const f = (n: number, digits = 1) => n.toFixed(digits);

export function exportReport(bench: ExportBench): string[] {
  const direct = bench.runs.find((run) => run.label.startsWith('direct'));
  return [
    '',
    'Exports (whole `stock/pickings`, read to the end by one client; gateway RSS sampled every 100 ms):',
    '',
    '| Run | Rows | MB | Seconds | Rows/s | vs direct | Gateway CPU µs/row | Gateway RSS before / peak / after MB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...bench.runs.map(
      (run) =>
        `| ${run.label} | ${run.rows.toLocaleString('en')} | ${f(run.bytes / 1e6)} | ${f(run.seconds)} | ${f(run.rowsPerSecond, 0)} | ${direct ? f(run.rowsPerSecond / direct.rowsPerSecond, 2) : '–'}x | ${run.cpuUsPerRow === undefined ? '–' : f(run.cpuUsPerRow)} | ${run.rss ? `${f(run.rss.beforeMb)} / ${f(run.rss.peakMb)} / ${f(run.rss.afterMb)}` : '–'} |`,
    ),
    '',
    `Client leaving halfway through a CSV export of ${bench.disconnect.pages} pages: the ERP had received ${bench.disconnect.readsWhenLeft} page reads when it left, ${bench.disconnect.readsAfter2s} two seconds later, ${bench.disconnect.readsAfter4s} four seconds later (counted by a proxy in front of the sandbox).`,
  ];
}
