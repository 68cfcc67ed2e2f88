/**
 * A compressed export keeps the real process's memory flat: the gateway as production runs it
 * (`node packages/gateway/dist/runtime/main.js`, the README's heap flags `--max-semi-space-size=4
 * --max-old-space-size=256`) exports the largest resource, `stock/pickings` grown to ROWS records,
 * gzip and brotli, in CSV and NDJSON, to a client that reads as fast as it can, then to one that stops
 * reading halfway for a while. The oracle is what the client receives, decompressed by Node's zlib:
 * every row, as many as `X-Total-Count` announced, ids ascending without a gap or a repeat. The RSS is
 * sampled every 100 ms: it stays within RSS_GROWTH_MB of where the exports began. (A client that stops
 * reading is not tested here: the compressed remainder of an export this size fits in the loopback
 * socket's buffers, so the gateway would never feel it stop.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { startSandbox, type RunningSandbox } from '@ops-data-gateway/sandbox/http/start-sandbox';
import { createDemoKeys } from '@ops-data-gateway/sandbox/security/demo-keys';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';
import { initDatabase } from '@ops-data-gateway/sandbox/seed/init';
import { rssMb, startGatewayProcess, type GatewayProcess } from './support/gateway-process';

const PRODUCTION_HEAP = '--max-semi-space-size=4 --max-old-space-size=256';
/** stock/pickings grown to this: 50 pages of the default EXPORT_PAGE_SIZE, about 20 MB of NDJSON. */
const ROWS = 50_000;
/** What an export may add to the RSS it began at: two pages, the zlib stream's state, the heap's slack. */
const RSS_GROWTH_MB = 60;
/** Seeding 50,000 rows, starting the sandbox and the process: tens of seconds on a loaded machine. */
const START_WITHIN_MS = 180_000;
const EXPORT_WITHIN_MS = 240_000;

interface Received {
  readonly totalCount: string | undefined;
  readonly coding: string | undefined;
  /** Bytes on the wire, and the decompressed lines (the bytes themselves, for Parquet). */
  readonly wireBytes: number;
  readonly lines: string[];
  readonly bytes?: Buffer;
}

describe('a compressed export on the real process with the production heap', () => {
  let dir: string;
  let sandbox: RunningSandbox;
  let gateway: GatewayProcess;
  let key: string;
  let sampler: NodeJS.Timeout;
  let peakMb = 0;
  let startMb = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'odg-export-memory-'));
    const dbPath = join(dir, 'sandbox.db');
    initDatabase({ path: dbPath, scale: { 'stock.picking': ROWS } });
    const db = new DatabaseSync(dbPath);
    sandbox = await startSandbox({ dbPath, version: 19 });
    key = createDemoKeys(db, sandbox.database).valid;
    db.close();
    gateway = await startGatewayProcess({
      ERP_URL: sandbox.url,
      ERP_DATABASE: sandbox.database,
      ERP_TRANSPORT: 'json2',
      ERP_LOGIN: GATEWAY_LOGIN,
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: PRODUCTION_HEAP,
    });
    // One small export first: the heap settles at its working size (BENCHMARKS.md), then the sampling starts.
    await exportOf('/api/v1/stock/pickings?format=ndjson&fields=id&since_id=0', 'gzip');
    startMb = rssMb(gateway.pid);
    peakMb = startMb;
    sampler = setInterval(() => {
      peakMb = Math.max(peakMb, rssMb(gateway.pid));
    }, 100);
  }, START_WITHIN_MS);
  afterAll(async () => {
    clearInterval(sampler);
    process.stdout.write(`export-compression: gateway RSS ${startMb.toFixed(1)} MB before the exports, peak ${peakMb.toFixed(1)} MB (growth bound ${RSS_GROWTH_MB} MB)\n`);
    gateway?.kill('SIGKILL');
    await gateway?.exited;
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Reads an export, decompressed as it comes; a Parquet one (asked with gzip and br, sent as it is) kept whole. */
  function exportOf(path: string, coding: 'gzip' | 'br'): Promise<Received> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        `${gateway.url}${path}`,
        { headers: { Authorization: `Bearer ${key}`, 'Accept-Encoding': path.includes('parquet') ? 'gzip, br' : coding } },
        (res) => {
          if (res.statusCode !== 200) return reject(new Error(`${path}: ${res.statusCode}`));
          let wireBytes = 0;
          if (path.includes('format=parquet')) {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => {
              const bytes = Buffer.concat(chunks);
              resolve({ totalCount: res.headers['x-total-count'] as string | undefined, coding: res.headers['content-encoding'], wireBytes: bytes.length, lines: [], bytes });
            });
            res.on('error', reject);
            return;
          }
          res.on('data', (chunk: Buffer) => {
            wireBytes += chunk.length;
          });
          const text: Readable = res.pipe(coding === 'gzip' ? createGunzip() : createBrotliDecompress());
          let rest = '';
          const lines: string[] = [];
          text.setEncoding('utf8');
          text.on('data', (chunk: string) => {
            const parts = (rest + chunk).split('\n');
            rest = parts.pop() ?? '';
            lines.push(...parts);
          });
          text.on('end', () => {
            if (rest) lines.push(rest);
            resolve({
              totalCount: res.headers['x-total-count'] as string | undefined,
              coding: res.headers['content-encoding'],
              wireBytes,
              lines,
            });
          });
          text.on('error', reject);
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  /** Every id of an NDJSON export's lines, or of a CSV export's rows (first column), in order. */
  const idsOf = (received: Received, format: 'csv' | 'ndjson'): number[] =>
    format === 'ndjson'
      ? received.lines.filter(Boolean).map((line) => (JSON.parse(line) as { id: number }).id)
      : received.lines
          .slice(1)
          .filter((line) => line.trim() !== '')
          .map((line) => Number(line.slice(0, line.indexOf(','))));

  /** The ERP's record count, from the sandbox's own answer to the gateway's count (the JSON list's meta.total). */
  async function countOf(): Promise<number> {
    const res = await fetch(`${gateway.url}/api/v1/stock/pickings?limit=1&fields=id`, { headers: { Authorization: `Bearer ${key}` } });
    return ((await res.json()) as { meta: { total: number } }).meta.total;
  }

  it.each([
    ['ndjson', 'gzip'],
    ['csv', 'br'],
  ] as const)(
    'the whole resource as %s, %s: every row, as announced, in id order, the RSS flat',
    async (format, coding) => {
      const total = await countOf();
      expect(total).toBeGreaterThanOrEqual(ROWS);
      const received = await exportOf(`/api/v1/stock/pickings?format=${format}`, coding);
      expect([received.coding, received.totalCount]).toEqual([coding, String(total)]);
      const ids = idsOf(received, format);
      expect(ids.length).toBe(total);
      expect(ids.every((id, i) => i === 0 || id > (ids[i - 1] as number))).toBe(true);
      const plainBytes = received.lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
      process.stdout.write(
        `export-compression: ${format} ${coding}: ${ids.length} rows, ${(plainBytes / 2 ** 20).toFixed(1)} MB as ${(received.wireBytes / 2 ** 20).toFixed(1)} MB on the wire; RSS peak so far ${peakMb.toFixed(1)} MB\n`,
      );
      expect(received.wireBytes).toBeLessThan(plainBytes / 4);
      expect(peakMb - startMb).toBeLessThan(RSS_GROWTH_MB);
    },
    EXPORT_WITHIN_MS,
  );

  it(
    'the whole resource as Parquet: every row as announced, read by DuckDB, the RSS flat',
    async () => {
      const total = await countOf();
      const received = await exportOf('/api/v1/stock/pickings?format=parquet', 'gzip');
      expect([received.coding, received.totalCount]).toEqual([undefined, String(total)]);
      const file = join(dir, 'stock-pickings.parquet');
      writeFileSync(file, received.bytes as Buffer);
      const instance = await DuckDBInstance.create(':memory:');
      const duck = await instance.connect();
      try {
        const read = await duck.runAndReadAll(`SELECT count(*)::INTEGER, count(DISTINCT id)::INTEGER, bool_and(id > 0) FROM read_parquet('${file}')`);
        expect(read.getRows()[0]).toEqual([total, total, true]);
      } finally {
        duck.closeSync();
        instance.closeSync();
      }
      process.stdout.write(`export-compression: parquet: ${total} rows in ${(received.wireBytes / 2 ** 20).toFixed(1)} MB; RSS peak so far ${peakMb.toFixed(1)} MB\n`);
      expect(peakMb - startMb).toBeLessThan(RSS_GROWTH_MB);
    },
    EXPORT_WITHIN_MS,
  );
});
