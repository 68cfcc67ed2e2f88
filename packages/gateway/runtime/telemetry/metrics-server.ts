/**
 * @module The metrics listener: `GET /metrics` in the Prometheus text format, on a port of its own
 * (METRICS_PORT, METRICS_HOST: loopback by default), never on the public port, so the numbers an
 * operator reads (routes, models, ERP version) are not published with the API. Anything else is 404.
 */
import { createServer, type Server } from 'node:http';

/** Whatever gives one scrape's exposition: this process's metrics, or every worker's added up. */
export interface MetricsSource {
  scrape(): Promise<{ readonly body: string; readonly contentType: string }>;
}

export function createMetricsServer(metrics: MetricsSource): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(path === '/metrics' ? 405 : 404, { 'Content-Type': 'text/plain; charset=utf-8', ...(path === '/metrics' ? { Allow: 'GET, HEAD' } : {}) });
      res.end(path === '/metrics' ? 'Only GET and HEAD.\n' : 'Metrics are at /metrics.\n');
      return;
    }
    metrics.scrape().then(
      ({ body, contentType }) => {
        res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
        res.end(body);
      },
      () => {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('The metrics could not be collected.\n');
      },
    );
  });
}
