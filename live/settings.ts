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
  /**
   * The rights-restored check: an API account of its own (not the technical one other live runs
   * use), whose only read right on `resource`'s model comes from `group` (an external id); the
   * check takes that right away and gives it back with the administrator's key (`ir.model.access`,
   * `perm_read`). All of it, and the administrator, or the check is skipped.
   */
  readonly rights?: { readonly login: string; readonly key: string; readonly group: string; readonly resource: string };
}

/** What a live run checks and what it cannot, with the reason: known before any test is declared. */
export interface LivePlan {
  readonly major: number;
  /** Why a check does not apply to this ERP or these settings (it is reported skipped with the reason); absent: it runs. */
  readonly skip: Readonly<Partial<Record<LiveCheck, string>>>;
}

/** The live checks that need something not every ERP or every set of settings has. */
export type LiveCheck = 'forbiddenKey' | 'expiredKey' | 'noRead' | 'unreadable' | 'rightsRestored';

/** The settings a plan looks at (which of them are given). */
export type LivePlanSettings = Pick<LiveErpSettings, 'forbiddenKey' | 'expiredKey' | 'noReadKey' | 'noReadResource' | 'unreadable' | 'rights' | 'adminLogin' | 'adminKey'>;

/** The checks of a run on an ERP of `major` with `settings`, and why the others are skipped. */
export function livePlan(settings: LivePlanSettings, major: number): LivePlan {
  const skip: Partial<Record<LiveCheck, string>> = {};
  if (!settings.forbiddenKey) skip.forbiddenKey = 'LIVE_ERP_FORBIDDEN_KEY unset';
  if (major < 18) skip.expiredKey = `Odoo ${major} has no key expiry`;
  else if (!settings.expiredKey) skip.expiredKey = 'LIVE_ERP_EXPIRED_KEY unset';
  if (!settings.noReadKey || !settings.noReadResource) skip.noRead = 'LIVE_ERP_NO_READ_KEY or LIVE_ERP_NO_READ_RESOURCE unset';
  if (settings.unreadable.length === 0) skip.unreadable = 'LIVE_ERP_UNREADABLE unset';
  if (!settings.rights) skip.rightsRestored = 'LIVE_ERP_RIGHTS_LOGIN, LIVE_ERP_RIGHTS_KEY or LIVE_ERP_RIGHTS_GROUP unset';
  else if (!settings.adminKey || !settings.adminLogin)
    skip.rightsRestored = 'LIVE_ERP_ADMIN_LOGIN or LIVE_ERP_ADMIN_KEY unset (the rights-restored check changes a right with them)';
  return { major, skip };
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
  const rightsLogin = optional('LIVE_ERP_RIGHTS_LOGIN');
  const rightsKey = optional('LIVE_ERP_RIGHTS_KEY');
  const rightsGroup = optional('LIVE_ERP_RIGHTS_GROUP');
  const rightsResource = optional('LIVE_ERP_RIGHTS_RESOURCE') ?? 'fleet/vehicles';
  if (rightsGroup && !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(rightsGroup)) return { ok: false, reason: `LIVE_ERP_RIGHTS_GROUP: '${rightsGroup}' is not an external id (module.name)` };
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
      ...(rightsLogin && rightsKey && rightsGroup ? { rights: { login: rightsLogin, key: rightsKey, group: rightsGroup, resource: rightsResource } } : {}),
    },
  };
}

/** The transports a server offers: JSON-2 from Odoo 19 on. */
export function transportsOf(major: number): readonly LiveTransport[] {
  return major >= 19 ? TRANSPORTS : ['jsonrpc', 'xmlrpc'];
}
