/**
 * @module The live ERP that the live suites (`make test-live`) and the differential check
 * (`make erp-diff`) run against, from `LIVE_ERP_*` environment variables. Everything but the URL,
 * database, technical login and its key is optional: the checks that need a missing setting say so
 * and skip.
 */

export type LiveTransport = 'json2' | 'jsonrpc' | 'xmlrpc';

export interface LiveErpSettings {
  /** Base URL of the Odoo server (`http://127.0.0.1:8069`). */
  readonly url: string;
  readonly database: string;
  /** Login of the gateway's technical account (member of the API group). */
  readonly login: string;
  /** A valid API key of that account. */
  readonly key: string;
  /** Transports to run over; default: json2, jsonrpc and xmlrpc on 19+, jsonrpc and xmlrpc before. */
  readonly transports?: readonly LiveTransport[];
  /** External id of the API group (`ERP_API_GROUP` of the gateway). */
  readonly apiGroup?: string;
  /** A key of an account outside the API group (403 on JSON-2, 401 over RPC). */
  readonly forbiddenKey?: string;
  /** An expired key of the technical account (Odoo 18+). */
  readonly expiredKey?: string;
  /** A key of an API account without read right on `noReadResource`'s model, and that resource. */
  readonly noReadKey?: string;
  readonly noReadResource?: string;
  /** `resource.field:model` pairs whose ERP model the technical account cannot read (answered null). */
  readonly unreadable: readonly { readonly resource: string; readonly field: string; readonly model: string }[];
  /** An administrator's login and key (the differential check reads every record with them). */
  readonly adminLogin?: string;
  readonly adminKey?: string;
}

export type LiveSettingsResult = { readonly ok: true; readonly settings: LiveErpSettings } | { readonly ok: false; readonly reason: string };

const REQUIRED = ['LIVE_ERP_URL', 'LIVE_ERP_DATABASE', 'LIVE_ERP_LOGIN', 'LIVE_ERP_KEY'] as const;
const TRANSPORTS: readonly LiveTransport[] = ['json2', 'jsonrpc', 'xmlrpc'];

export function liveErpSettings(env: NodeJS.ProcessEnv = process.env): LiveSettingsResult {
  const missing = REQUIRED.filter((name) => !env[name]);
  if (missing.length) return { ok: false, reason: `no live ERP configured (${missing.join(', ')} unset)` };
  const transports = env['LIVE_ERP_TRANSPORTS']
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const wrong = transports?.find((t) => !TRANSPORTS.includes(t as LiveTransport));
  if (wrong) return { ok: false, reason: `LIVE_ERP_TRANSPORTS: unknown transport '${wrong}' (json2, jsonrpc, xmlrpc)` };
  const unreadable = [];
  for (const item of (env['LIVE_ERP_UNREADABLE'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([a-z0-9-]+\/[a-z0-9-]+)\.([a-z0-9_]+):([a-z0-9_.]+)$/.exec(item);
    if (!m) return { ok: false, reason: `LIVE_ERP_UNREADABLE: '${item}' is not resource.field:model (fleet/vehicles.odometer:fleet.vehicle.odometer)` };
    unreadable.push({ resource: m[1] as string, field: m[2] as string, model: m[3] as string });
  }
  const optional = (name: string): string | undefined => env[name] || undefined;
  return {
    ok: true,
    settings: {
      url: (env['LIVE_ERP_URL'] as string).replace(/\/+$/, ''),
      database: env['LIVE_ERP_DATABASE'] as string,
      login: env['LIVE_ERP_LOGIN'] as string,
      key: env['LIVE_ERP_KEY'] as string,
      transports: transports as LiveTransport[] | undefined,
      apiGroup: optional('LIVE_ERP_API_GROUP'),
      forbiddenKey: optional('LIVE_ERP_FORBIDDEN_KEY'),
      expiredKey: optional('LIVE_ERP_EXPIRED_KEY'),
      noReadKey: optional('LIVE_ERP_NO_READ_KEY'),
      noReadResource: optional('LIVE_ERP_NO_READ_RESOURCE'),
      adminLogin: optional('LIVE_ERP_ADMIN_LOGIN'),
      adminKey: optional('LIVE_ERP_ADMIN_KEY'),
      unreadable,
    },
  };
}

/** The transports a server offers: JSON-2 from Odoo 19 on. */
export function transportsOf(major: number): readonly LiveTransport[] {
  return major >= 19 ? TRANSPORTS : ['jsonrpc', 'xmlrpc'];
}
