/**
 * The shipped alert rules (docs/operating/alerts.yml) under Prometheus's own rule tester, promtool:
 * - the rules load (`promtool check rules`);
 * - their unit tests pass (`promtool test rules tests/operate/alerts.test.yml`: each alert fires on
 *   the situation it is about and stays silent on access errors, 4xx answers and a quiet period),
 *   and they fail on the rule the README used to give (which counted access errors as ERP faults);
 * - on a real gateway's own metrics: the traffic of a scrape interval (what changed between two
 *   scrapes of a gateway over real HTTP), kept up for 20 minutes, fires nothing when it is clients'
 *   mistakes and access errors (an unreadable relation, a key without read right, wrong keys, invalid
 *   queries, unknown records), and fires the ERP and 5xx alerts when the ERP fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { FaultProxy } from '../support/fault-proxy';
import { startStackBehindProxy, type Stack } from '../support/stack';

const root = join(__dirname, '..', '..');
const RULES = join(root, 'docs', 'operating', 'alerts.yml');
const UNIT_TESTS = join(__dirname, 'alerts.test.yml');

function promtool(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync('promtool', args, { encoding: 'utf8', timeout: 60_000 });
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

interface Rule {
  readonly alert: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

/** The names of the alerts of a rules file written as alerts.yml is (`- alert: Name` lines). */
function alertsOf(text: string): string[] {
  return [...text.matchAll(/^\s+- alert: ([A-Za-z]+)$/gm)].map((m) => m[1] as string);
}

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'odg-alerts-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the shipped alert rules (promtool)', () => {
  it('load: promtool check rules', () => {
    const check = promtool('check', 'rules', RULES);
    expect(check.output).toContain(`SUCCESS: ${alertsOf(readFileSync(RULES, 'utf8')).length} rules found`);
    expect(check.status).toBe(0);
  });

  it('pass their unit tests: each alert fires on its situation, none on access errors, 4xx or a quiet period', () => {
    const test = promtool('test', 'rules', UNIT_TESTS);
    expect(test.output).toContain('SUCCESS');
    expect(test.status).toBe(0);
    // Every alert of the file is evaluated by the unit tests, and seen firing in at least one of them.
    const tests = readFileSync(UNIT_TESTS, 'utf8');
    for (const alert of alertsOf(readFileSync(RULES, 'utf8'))) {
      expect([alert, tests.includes(`alertname: ${alert}\n        exp_alerts:\n          - exp_labels`)]).toEqual([alert, true]);
    }
  });

  it('the unit tests fail on the rule that counted every outcome but ok (access errors, wrong keys, the gateway refusing)', () => {
    const old = readFileSync(RULES, 'utf8').replace(/outcome=~"[^"]*"/, 'outcome!="ok"');
    expect(old).not.toBe(readFileSync(RULES, 'utf8'));
    writeFileSync(join(work, 'alerts.yml'), old);
    writeFileSync(join(work, 'alerts.test.yml'), readFileSync(UNIT_TESTS, 'utf8').replace('rule_files: [../../docs/operating/alerts.yml]', 'rule_files: [alerts.yml]'));
    const test = promtool('test', 'rules', join(work, 'alerts.test.yml'));
    expect(test.status).not.toBe(0);
    expect(test.output).toMatch(/alertname: ErpErrorRate, time: 20m,\s+exp:\[\],\s+got:\[/);
  });
});

interface Sample {
  readonly series: string;
  readonly name: string;
  readonly value: number;
}

/** The `odg_*` samples of an exposition, each series as written (name and labels). */
function samplesOf(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^((odg_[a-z_]+)(?:\{.*\})?) (\S+)$/.exec(line);
    if (match) samples.push({ series: match[1] as string, name: match[2] as string, value: Number(match[3]) });
  }
  return samples;
}

/**
 * A promtool unit test of the rules on what happened between two scrapes, taken as one minute of
 * traffic and kept up at that rate for 30 minutes (a gauge keeps its last value); every alert is
 * evaluated 20 minutes in, `firing` expected to fire (with the rule's own labels and annotations),
 * every other one silent.
 */
function sustainedTest(before: Sample[], after: Sample[], firing: readonly string[]): string {
  const rules = readFileSync(RULES, 'utf8');
  const earlier = new Map(before.map((s) => [s.series, s.value]));
  const gauges = new Set([
    'odg_drift_problems',
    'odg_erp_calls_in_flight',
    'odg_erp_calls_queued',
    'odg_memory_budget_used_bytes',
    'odg_memory_budget_limit_bytes',
    'odg_build_info',
  ]);
  const series = after.map((s) => {
    const start = gauges.has(s.name) ? s.value : (earlier.get(s.series) ?? 0);
    const delta = gauges.has(s.name) ? 0 : s.value - start;
    return `      - series: ${JSON.stringify(s.series)}\n        values: '${start}+${delta}x30'`;
  });
  const expectations = alertsOf(rules).map((alert) => {
    if (!firing.includes(alert)) return `      - eval_time: 20m\n        alertname: ${alert}\n        exp_alerts: []`;
    const rule = ruleOf(rules, alert);
    const labels = Object.entries(rule.labels).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
    const annotations = Object.entries(rule.annotations).map(([k, v]) => `              ${k}: ${JSON.stringify(v)}`);
    return `      - eval_time: 20m\n        alertname: ${alert}\n        exp_alerts:\n          - exp_labels: { ${labels.join(', ')} }\n            exp_annotations:\n${annotations.join('\n')}`;
  });
  return `rule_files: [${JSON.stringify(RULES)}]\nevaluation_interval: 1m\ntests:\n  - interval: 1m\n    input_series:\n${series.join('\n')}\n    alert_rule_test:\n${expectations.join('\n')}\n`;
}

/** One rule's labels (a flow map) and annotations (plain `key: value` lines), as alerts.yml writes them. */
function ruleOf(rules: string, alert: string): Rule {
  const start = rules.indexOf(`- alert: ${alert}\n`);
  const next = rules.indexOf('- alert: ', start + 1);
  const block = rules.slice(start, next < 0 ? undefined : next);
  const labels: Record<string, string> = {};
  for (const pair of (/labels: \{ ([^}]*) \}/.exec(block)?.[1] ?? '').split(/,\s*/)) {
    const [k, v] = pair.split(/:\s*/);
    if (k && v) labels[k] = v;
  }
  const annotations: Record<string, string> = {};
  const annotationLines = block.slice(block.indexOf('annotations:\n') + 'annotations:\n'.length).split('\n');
  for (const line of annotationLines) {
    const match = /^ {10}([a-z]+): (.*)$/.exec(line);
    if (!match) break;
    const raw = match[2] as string;
    annotations[match[1] as string] = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
  }
  return { alert, labels, annotations };
}

describe("the alert rules on a real gateway's metrics", () => {
  let stack: Stack;
  let proxy: FaultProxy;
  const scrape = async () => {
    // The request metrics are recorded as each answer finishes: the scrape comes after.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return samplesOf((await request(stack.metricsUrl as string).get('/metrics')).text);
  };
  const run = (name: string, before: Sample[], after: Sample[], firing: readonly string[]) => {
    const file = join(work, `${name}.test.yml`);
    writeFileSync(file, sustainedTest(before, after, firing));
    return promtool('test', 'rules', file);
  };

  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({ transport: 'json2', env: { METRICS_PORT: '0' } }));
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  it("clients' mistakes and access errors fire nothing", async () => {
    const before = await scrape();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      // fleet/vehicles.odometer is a relation the API account may not read: AccessError from the ERP, answered null.
      statuses.push((await stack.get('/api/v1/fleet/vehicles?limit=5')).status);
      statuses.push((await stack.get('/api/v1/fleet/vehicles', stack.keys.no_read.key)).status);
      statuses.push((await stack.get('/api/v1/fleet/vehicles', `wrong-key-${i}`)).status);
      statuses.push((await stack.get('/api/v1/fleet/vehicles?colour=red')).status);
      statuses.push((await stack.get('/api/v1/fleet/vehicles/999999')).status);
    }
    expect(new Set(statuses)).toEqual(new Set([200, 403, 401, 400, 404]));
    const after = await scrape();
    // The ERP said no, as it should: these are the outcomes the rule must not count.
    const moved = (outcome: string) =>
      after.filter((s) => s.name === 'odg_erp_call_duration_seconds_count' && s.series.includes(`outcome="${outcome}"`)).reduce((n, s) => n + s.value, 0);
    expect(moved('access_error')).toBeGreaterThan(0);
    const test = run('client-errors', before, after, []);
    expect([test.status, test.output]).toEqual([0, expect.stringContaining('SUCCESS')]);
  });

  it('an ERP that fails fires ErpErrorRate and GatewayServerErrors', async () => {
    const before = await scrape();
    proxy.mode = { kind: 'html' };
    try {
      for (let i = 0; i < 10; i++) expect((await stack.get('/api/v1/fleet/trips?limit=2')).status).toBe(502);
    } finally {
      proxy.mode = { kind: 'forward' };
    }
    for (let i = 0; i < 5; i++) expect((await stack.get('/api/v1/fleet/trips?limit=2')).status).toBe(200);
    const after = await scrape();
    const test = run('erp-faults', before, after, ['ErpErrorRate', 'GatewayServerErrors']);
    expect([test.status, test.output]).toEqual([0, expect.stringContaining('SUCCESS')]);
  });
});
