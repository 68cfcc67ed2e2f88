/**
 * The operating settings as main.ts reads them: metrics, traces and compression are what the README's
 * Configuration table says by default (metrics and traces off, compression on), and a wrong value
 * stops start-up naming its variable; the metrics listener can never be the public port.
 */
import { ConfigError, loadConfig } from '@ops-data-gateway/gateway/runtime/config';

const BASE = { ERP_URL: 'http://127.0.0.1:8069', ERP_DATABASE: 'odoo', PORT: '8080' };

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ ...BASE, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
}

describe('operating settings', () => {
  it('has metrics and traces off and compression on by default', () => {
    const config = loadConfig(BASE);
    expect([config.metrics, config.tracing, config.compression]).toEqual([undefined, undefined, { enabled: true, minBytes: 1024 }]);
  });

  it('reads the metrics listener (loopback unless told), the OTLP endpoint and the compression settings', () => {
    const config = loadConfig({ ...BASE, METRICS_PORT: '9464', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/', COMPRESSION: 'off', COMPRESSION_MIN_BYTES: '0' });
    expect(config.metrics).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(config.tracing).toEqual({ endpoint: 'http://collector:4318', serviceName: 'ops-data-gateway' });
    expect(config.compression).toEqual({ enabled: false, minBytes: 0 });
    expect(loadConfig({ ...BASE, METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metrics).toEqual({ host: '0.0.0.0', port: 9464 });
  });

  it.each([
    [{ METRICS_PORT: '8080' }, 'METRICS_PORT', /never served on the public port/],
    [{ METRICS_PORT: '8080', METRICS_HOST: '0.0.0.0' }, 'METRICS_PORT', /never served on the public port/],
    [{ METRICS_PORT: 'nine' }, 'METRICS_PORT', /integer/],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT', /integer/],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT', /http\(s\) URL/],
    [{ COMPRESSION: 'yes' }, 'COMPRESSION', /one of on, off/],
    [{ COMPRESSION_MIN_BYTES: '-1' }, 'COMPRESSION_MIN_BYTES', /integer/],
  ])('refuses %j, naming %s', (env, variable, message) => {
    const error = refusal(env);
    expect([error.variable, error.message]).toEqual([variable, expect.stringMatching(message)]);
  });
});
