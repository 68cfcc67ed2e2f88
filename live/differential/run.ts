/**
 * @module One differential run: learn the live ERP's version, mirror its common records into a
 * fresh sandbox of that version (started in-process), send the series to both over every
 * transport the version offers, and collect the differences (one per call and mismatch, the
 * transports that showed the same mismatch folded together).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '@ops-data-gateway/sandbox/http/start-sandbox';
import { loadRegistry } from '@ops-data-gateway/sandbox/models/index';
import type { Registry } from '@ops-data-gateway/sandbox/orm/registry';
import type { OdooVersion } from '@ops-data-gateway/sandbox/orm/types';
import { transportsOf, type LiveErpSettings } from '../settings';
import type { Answer, Transport } from './answer';
import { canonical, compareAnswers, type DifferenceKind } from './compare';
import { buildMirror, readSnapshot } from './mirror';
import { discoverSchema } from './schema';
import { buildGroupSeries } from './group-series';
import { buildSeries, tieKeyOf, type SeriesCall } from './series';
import { mustCall, send, uidOf, type AccountName, type KeyName, type Side, type WireCall } from './wire';

export class CannotRun extends Error {}

export interface DifferentialOptions {
  readonly live: LiveErpSettings;
  /** Only the calls whose behaviour the reference says differs by version (section 12). */
  readonly versionOnly?: boolean;
  /** Calls in flight at once (default 6). */
  readonly concurrency?: number;
  readonly registry?: Registry;
  /** Compare only these models (default: every model of the registry the live ERP has). */
  readonly models?: readonly string[];
  /** Progress lines (stderr in the CLI). */
  readonly progress?: (line: string) => void;
}

interface Difference {
  readonly call: string;
  readonly transports: readonly Transport[];
  readonly kind: DifferenceKind;
  readonly path: string;
  readonly live: unknown;
  readonly sandbox: unknown;
}

export interface DifferentialReport {
  readonly liveVersion: string;
  readonly transports: readonly Transport[];
  /** Calls sent to each side (one per call and transport). */
  readonly calls: number;
  readonly differences: readonly Difference[];
  /** Models and fields left out of the comparison, and why. */
  readonly notes: readonly string[];
}

export async function runDifferential(options: DifferentialOptions): Promise<DifferentialReport> {
  const progress = options.progress ?? (() => undefined);
  const settings = options.live;
  if (!settings.adminLogin || !settings.adminKey) throw new CannotRun('LIVE_ERP_ADMIN_LOGIN and LIVE_ERP_ADMIN_KEY are needed to mirror the live records');
  const version = await liveVersion(settings.url);
  const major = version.info[0] as number;
  if (major !== 17 && major !== 18 && major !== 19) throw new CannotRun(`live ERP is Odoo ${version.text}; the sandbox imitates 17, 18 and 19`);
  const transports = settings.transports ?? transportsOf(major);
  const live = await liveSide(settings, major);
  if (live.uids.admin === false) throw new CannotRun(`live ERP refused ${settings.adminLogin} with LIVE_ERP_ADMIN_KEY`);

  const registry = options.registry ?? loadRegistry();
  progress(`live Odoo ${version.text}: reading the common models`);
  const schema = await discoverSchema(live, registry, options.models);
  const { snapshot, nulls, fractions } = await readSnapshot(live, schema, major);
  const dir = mkdtempSync(join(tmpdir(), 'odg-erp-diff-'));
  try {
    const dbPath = join(dir, 'mirror.db');
    const preferences = await userPreferences(live);
    const mirror = buildMirror({ path: dbPath, registry, schema, snapshot, nulls, fractions, preferences, version: major as OdooVersion });
    const sandbox = await startSandbox({ dbPath, version: major as OdooVersion, database: settings.database });
    try {
      const twin: Side = { label: 'sandbox', url: sandbox.url, database: sandbox.database, major, logins: live.logins, uids: mirror.uids, keys: mirror.keys };
      const keys = new Set((Object.keys(live.keys) as KeyName[]).filter((k) => mirror.keys[k]));
      const input = { schema, snapshot, major, transports, keys, nulls };
      let series = [...buildSeries(input), ...buildGroupSeries(input)];
      if (options.versionOnly) series = series.filter(isVersionDependent);
      progress(`${series.length} calls × ${transports.length} transports against ${sandbox.url}`);
      const differences = await compareAll(series, live, twin, options.concurrency ?? 6, (s) => tieKeyOf(snapshot, s.model, s.order));
      const calls = series.reduce((n, s) => n + s.transports.length, 0);
      return { liveVersion: version.text, transports, calls, differences, notes: schema.notes };
    } finally {
      await sandbox.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `tz` and `lang` of the accounts the series calls as, from their own `context_get`: the mirror
 * needs them for `context_get` even when `res.users` does not expose them as fields.
 */
async function userPreferences(live: Side): Promise<Map<number, Record<string, unknown>>> {
  const out = new Map<number, Record<string, unknown>>();
  const accounts: [AccountName, KeyName][] = [
    ['admin', 'admin'],
    ['api', 'valid'],
    ['noRead', 'noRead'],
  ];
  for (const [as, key] of accounts) {
    const uid = live.uids[as];
    if (uid === false || !live.keys[key]) continue;
    const context = (await mustCall(live, { kind: 'execute', model: 'res.users', method: 'context_get', kwargs: {}, as, key })) as Record<string, unknown>;
    out.set(uid, { tz: context['tz'] ?? false, lang: context['lang'] ?? false });
  }
  return out;
}

async function liveVersion(url: string): Promise<{ text: string; info: unknown[] }> {
  try {
    const response = await fetch(`${url}/jsonrpc`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { service: 'common', method: 'version', args: [] } }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await response.json()) as { result?: { server_version?: string; server_version_info?: unknown[] } };
    const info = body.result?.server_version_info;
    if (!Array.isArray(info) || typeof info[0] !== 'number') throw new Error('no server_version_info');
    return { text: String(body.result?.server_version ?? info[0]), info };
  } catch (error) {
    throw new CannotRun(`cannot read the live ERP's version at ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function liveSide(settings: LiveErpSettings, major: number): Promise<Side> {
  const logins = { admin: settings.adminLogin!, api: settings.login, noRead: 'gateway-noread' };
  const keys: Partial<Record<KeyName, string>> = { admin: settings.adminKey!, valid: settings.key };
  if (settings.forbiddenKey) keys.forbidden = settings.forbiddenKey;
  if (settings.expiredKey) keys.expired = settings.expiredKey;
  if (settings.noReadKey) keys.noRead = settings.noReadKey;
  const uids = {
    admin: await uidOf(settings.url, settings.database, logins.admin, keys.admin!),
    api: await uidOf(settings.url, settings.database, logins.api, keys.valid!),
    noRead: keys.noRead ? await uidOf(settings.url, settings.database, logins.noRead, keys.noRead) : (false as const),
  };
  if (uids.api === false) throw new CannotRun(`live ERP refused ${settings.login} with LIVE_ERP_KEY`);
  return { label: 'live', url: settings.url, database: settings.database, major, logins, uids, keys };
}

/** Calls whose answer the reference says depends on the version (section 12). */
function isVersionDependent(s: SeriesCall): boolean {
  const call = s.call;
  if (call.kind !== 'execute') return true;
  // Grouped reads: their compatibility layer, granularities and errors differ in every version.
  if (call.method === 'read_group' || call.method === 'formatted_read_group' || call.method === '_read_group') return true;
  if (call.model === 'x.no.such.model' || call.method.startsWith('_') || call.method === 'no_such_method' || call.method === 'has_group') return true;
  if (call.contentType || call.noAuthorization || (call.key && call.key !== 'admin')) return true;
  const domain = call.kwargs['domain'];
  const order = call.kwargs['order'];
  if (typeof order === 'string' && /nulls|no_such|;| asc desc/.test(order)) return true;
  if (!Array.isArray(domain)) return false;
  return (
    JSON.stringify(domain).match(
      /"(=|!=|in|not in|=\?|ilike|not ilike|=like|<|<=|>|>=|any|not any)",(false|""|\[false\]|"\d{4}-\d\d-\d\d")|"(any|not any)"|no such|no_such|"<",1\]|">=",0\]/,
    ) !== null
  );
}

function describeCall(call: WireCall): string {
  switch (call.kind) {
    case 'version':
      return 'common.version / GET /web/version';
    case 'authenticate':
      return `common.authenticate(${call.as} login, ${call.key} key)`;
    case 'execute': {
      const who = call.as || call.key ? ` [${call.as ?? 'admin'} uid, ${call.key ?? 'admin'} key]` : '';
      const raw = [call.contentType ? ` Content-Type: ${call.contentType}` : '', call.noAuthorization ? ' no Authorization' : ''].join('');
      const ids = call.ids ? ` ids=${JSON.stringify(call.ids)}` : '';
      return `${call.model}.${call.method}${ids} ${shorten(canonicalArgs(call.kwargs), 220)}${who}${raw}`;
    }
  }
}

function canonicalArgs(kwargs: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(kwargs);
}

export function shorten(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

async function compareAll(
  series: readonly SeriesCall[],
  live: Side,
  sandbox: Side,
  concurrency: number,
  tieKeys: (order: { model: string; order: string }) => (item: unknown) => string,
): Promise<Difference[]> {
  const jobs = series.flatMap((s, index) => s.transports.map((transport) => ({ s, index, transport })));
  const found: { index: number; transport: Transport; kind: DifferenceKind; path: string; live: unknown; sandbox: unknown }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const [a, b] = await Promise.all([safeSend(live, job.transport, job.s.call), safeSend(sandbox, job.transport, job.s.call)]);
      const project = (answer: Answer): Answer => (answer.kind === 'result' && job.s.project ? { ...answer, value: job.s.project(answer.value) } : answer);
      const mismatches = compareAnswers(project(a), project(b), job.s.order ? { tieKey: tieKeys(job.s.order) } : {});
      for (const m of mismatches) found.push({ index: job.index, transport: job.transport, ...m });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  // The same mismatch on several transports is one difference.
  const grouped = new Map<string, Difference & { index: number; transports: Transport[] }>();
  for (const f of found.sort((x, y) => x.index - y.index)) {
    const key = `${f.index}|${f.kind}|${f.path}|${canonical(f.live)}|${canonical(f.sandbox)}`;
    const existing = grouped.get(key);
    if (existing) existing.transports.push(f.transport);
    else grouped.set(key, { index: f.index, call: describeCall(series[f.index]!.call), transports: [f.transport], kind: f.kind, path: f.path, live: f.live, sandbox: f.sandbox });
  }
  return [...grouped.values()].map(({ index: _index, ...d }) => d);
}

/** A side that cannot be reached answers with that failure, which then shows as a difference. */
async function safeSend(side: Side, transport: Transport, call: WireCall): Promise<Answer> {
  try {
    return await send(side, transport, call);
  } catch (error) {
    return { kind: 'http', status: 0, contentType: '', text: `request failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
