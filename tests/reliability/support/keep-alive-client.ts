/**
 * An HTTP client for the reliability suites that sends a request exactly as given (method, path,
 * headers; Node only refuses characters outside 0x21-0xFF in the path) over one kept-alive
 * connection, so thousands of generated requests run quickly, and answers in the shape
 * `expectDocumented` checks. Every request has a client-side time limit: a hang fails the test
 * instead of stalling the run.
 */
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: string;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The parsed JSON body, or `{}` when the body is not JSON (as supertest does). */
  readonly body: unknown;
  /** Time from sending to the end of the answer. */
  readonly ms: number;
}

export class KeepAliveClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly base: URL;

  constructor(
    baseUrl: string,
    /** Longest a request may take before it counts as hung. */
    private readonly limitMs = 10000,
  ) {
    this.base = new URL(baseUrl);
  }

  send(raw: RawRequest): Promise<RawResponse> {
    const started = performance.now();
    return new Promise<RawResponse>((resolve, reject) => {
      const req = request(
        {
          agent: this.agent,
          host: this.base.hostname,
          port: this.base.port,
          method: raw.method,
          path: raw.path,
          headers: raw.headers as Record<string, string | string[]> | undefined,
          timeout: this.limitMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            // Decoded as any HTTP client does: a generated Accept-Encoding may get a compressed answer.
            const raw = Buffer.concat(chunks);
            const coding = String(res.headers['content-encoding'] ?? '');
            const text = (coding === 'gzip' ? gunzipSync(raw) : coding === 'br' ? brotliDecompressSync(raw) : raw).toString('utf8');
            let body: unknown = {};
            if (String(res.headers['content-type'] ?? '').includes('json') && text) {
              try {
                body = JSON.parse(text);
              } catch {
                body = text;
              }
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body, ms: performance.now() - started });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${raw.method} ${raw.path.slice(0, 200)}: no answer within ${this.limitMs} ms`)));
      req.on('error', reject);
      req.end(raw.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
