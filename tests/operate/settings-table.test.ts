/**
 * Configuration is declared once, in runtime/settings.ts: docs/production.md's two Configuration tables hold
 * exactly its rows (no setting undocumented, no documented setting the gateway does not read), each
 * rendered from its declaration; and config.ts enforces every declared bound and list of values.
 * When a setting is added, the failure prints the guide's row it needs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig, loadMcpBridgeConfig } from '@ops-data-gateway/gateway/runtime/config';
import { MCP_BRIDGE_SETTINGS, SETTINGS, type SettingSpec } from '@ops-data-gateway/gateway/runtime/settings';

/** The guide that holds the Configuration tables (linked from the README's guide map). */
const README = readFileSync(join(__dirname, '..', '..', 'docs', 'production.md'), 'utf8');
const BASE = { ERP_URL: 'http://127.0.0.1:8069', ERP_DATABASE: 'odoo' };
/** What a setting needs set beside it to be read at all (the feature it tunes turned on). */
const NEEDS: Readonly<Record<string, Record<string, string>>> = {
  RATE_LIMIT_WINDOW_SECONDS: { RATE_LIMIT_POINTS: '100' },
  RATE_LIMIT_COSTS: { RATE_LIMIT_POINTS: '100' },
  REDIS_TIMEOUT_MS: { REDIS_URL: 'redis://127.0.0.1:6379' },
  REDIS_KEY_PREFIX: { REDIS_URL: 'redis://127.0.0.1:6379' },
  METRICS_HOST: { METRICS_PORT: '9464' },
  OTEL_SERVICE_NAME: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' },
};

/** The README row of a setting: name, default, what it accepts, meaning. */
function readmeRow(name: string, spec: SettingSpec): string {
  const fallback = spec.shown ?? (spec.required ? '(required)' : spec.default === undefined ? '' : `\`${spec.default}\``);
  const bounds = spec.min !== undefined && spec.max !== undefined ? `${spec.min} to ${spec.max}` : 'text';
  const accepts = spec.accepts ?? (spec.values ? spec.values.map((v) => `\`${v}\``).join(', ') : bounds);
  return `| \`${name}\` | ${fallback} | ${accepts} | ${spec.description} |`;
}

/** The rows of the Configuration tables of docs/production.md, by table (the gateway's, then `npm run mcp`'s). */
function readmeTables(): string[][] {
  const start = README.indexOf('\n## Configuration\n');
  const section = README.slice(start, README.indexOf('\n## ', start + 1));
  return section
    .split('\n| Variable |')
    .slice(1)
    .map((table) => {
      const lines = table.split('\n').slice(2);
      const end = lines.findIndex((line) => !line.startsWith('| `'));
      return end < 0 ? lines : lines.slice(0, end);
    });
}

const rowName = (row: string): string => /^\| `([A-Z0-9_]+)` \|/.exec(row)?.[1] ?? row;

describe('the settings table (runtime/settings.ts)', () => {
  const [gateway = [], bridge = []] = readmeTables();

  it.each([
    ['gateway', gateway, SETTINGS],
    ['npm run mcp', bridge, MCP_BRIDGE_SETTINGS],
  ] as const)("is docs/production.md's %s Configuration table, row by row, in both directions", (_table, rows, settings) => {
    const declared: Record<string, SettingSpec> = settings;
    expect(rows.length).toBeGreaterThan(0);
    const expected = Object.entries(declared).map(([name, spec]) => readmeRow(name, spec));
    const documented = new Set(rows.map(rowName));
    // Named first, so that a failure says which setting is missing or extra, and the row to write.
    expect(expected.filter((row) => !documented.has(rowName(row)))).toEqual([]);
    expect(rows.map(rowName).filter((name) => !(name in declared))).toEqual([]);
    expect(rows).toEqual(expected);
  });

  const integers = Object.entries(SETTINGS as Record<string, SettingSpec>).filter(([, spec]) => spec.min !== undefined && spec.max !== undefined);
  it.each(integers)('enforces the declared bounds of %s', (name, spec) => {
    const env = (value: number) => ({ ...BASE, ...NEEDS[name], [name]: String(value) });
    const max = spec.max as number;
    const min = spec.min as number;
    expect(() => loadConfig(env(max))).not.toThrow();
    expect(() => loadConfig(env(min))).not.toThrow();
    expect(() => loadConfig(env(max + 1))).toThrow(
      new ConfigError(name, `must ${name === 'WORKERS' ? "be 'auto' (one per CPU) or an integer" : 'be an integer'} from ${min} to ${max} (got '${max + 1}')`),
    );
    if (min > 0) expect(() => loadConfig(env(min - 1))).toThrow(ConfigError);
  });

  it('enforces the derived ceiling of CACHE_MAX_BYTES (half of MEMORY_BUDGET_BYTES), which the table states in words', () => {
    expect(SETTINGS.CACHE_MAX_BYTES.accepts).toBe('0 to half of `MEMORY_BUDGET_BYTES`');
    expect(loadConfig({ ...BASE, MEMORY_BUDGET_BYTES: '4194304', CACHE_MAX_BYTES: '2097152' }).cache.maxBytes).toBe(2097152);
    expect(() => loadConfig({ ...BASE, MEMORY_BUDGET_BYTES: '4194304', CACHE_MAX_BYTES: '2097153' })).toThrow(ConfigError);
  });

  const choices = Object.entries(SETTINGS as Record<string, SettingSpec>).filter(([, spec]) => spec.values);
  it.each(choices)('takes exactly the declared values of %s', (name, spec) => {
    for (const value of spec.values ?? []) expect(() => loadConfig({ ...BASE, [name]: value, ERP_LOGIN: 'api' })).not.toThrow();
    expect(() => loadConfig({ ...BASE, [name]: 'bogus' })).toThrow(new ConfigError(name, `must be one of ${spec.values?.join(', ')} (got 'bogus')`));
  });

  it('applies the declared plain defaults', () => {
    const config = loadConfig(BASE);
    expect([config.host, config.port, config.erp.transport, config.erp.apiGroup, config.erp.urlTemplate, config.erp.timeoutMs, config.requestTimeoutMs]).toEqual([
      SETTINGS.HOST.default,
      SETTINGS.PORT.default,
      SETTINGS.ERP_TRANSPORT.default,
      SETTINGS.ERP_API_GROUP.default,
      SETTINGS.ERP_URL_TEMPLATE.default,
      SETTINGS.ERP_TIMEOUT_MS.default,
      SETTINGS.ERP_TIMEOUT_MS.default,
    ]);
    expect(loadConfig({ ...BASE, RATE_LIMIT_POINTS: '10' }).rateLimit?.costs).toEqual({
      list: 1,
      counted_list: 1,
      aggregate: 1,
      expanded: 1,
      export: 1,
      detail: 1,
      not_modified: 1,
      cached: 1,
    });
    expect(loadMcpBridgeConfig({ API_KEY: 'k' }).gatewayUrl).toBe(MCP_BRIDGE_SETTINGS.GATEWAY_URL.default);
    for (const name of Object.keys(SETTINGS).filter((n) => (SETTINGS as Record<string, SettingSpec>)[n]?.required))
      expect(() => loadConfig({ ...BASE, [name]: '' })).toThrow(new ConfigError(name, 'is required'));
  });
});
