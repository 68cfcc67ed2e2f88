/**
 * @module `SandboxOrm`, the sandbox's implementation of the `Orm` seam: it looks methods up,
 * binds arguments as Python would, builds the request (clock, `active_test`, time zone) and runs
 * the method against the SQLite store.
 */
import type { Database } from '../store/database';
import { StatementCache } from '../store/statements';
import { AccessControl } from './access';
import { bindArguments } from './binding';
import { attributeError, userError } from './errors';
import { MethodTable, methodOwner } from './method-specs';
import { handlerFor, type Request } from './methods';
import { pyTruthy } from './python';
import type { Registry } from './registry';
import { registerGroupFunctions } from './read-group';
import { isKnownZone, utcToLocalText } from './temporal';
import type { Env, MethodSpec, OdooVersion, Orm } from './types';
import { param, sql } from './sql';

export interface OrmOptions {
  /** Odoo major version to imitate (default 19). */
  readonly version?: OdooVersion;
  /** Request clock (computed fields' `:now`/`:today`, 19's relative dates); default real time. */
  readonly now?: () => Date;
  /** Model registry (the sandbox's own: `loadRegistry` of `sandbox/models/`). */
  readonly registry: Registry;
}

interface UserPreferences {
  readonly lang: string | null;
  readonly tz: string | null;
}

export class SandboxOrm implements Orm {
  readonly version: OdooVersion;
  readonly registry: Registry;
  readonly access: AccessControl;
  private readonly statements: StatementCache;
  private readonly methods: MethodTable;
  private readonly clock: () => Date;
  private readonly preferences = new Map<number, UserPreferences>();

  constructor(db: Database, options: OrmOptions) {
    this.version = options.version ?? 19;
    this.registry = options.registry;
    this.access = new AccessControl(db, this.registry);
    this.statements = new StatementCache(db);
    this.methods = new MethodTable(this.version);
    this.clock = options.now ?? (() => new Date());
    const offsets = new Map<string, Map<number, number>>();
    registerGroupFunctions(db, (value, tz) => {
      let cache = offsets.get(tz);
      if (!cache) {
        cache = new Map();
        offsets.set(tz, cache);
      }
      return utcToLocalText(value, tz, cache);
    });
  }

  hasModel(model: string): boolean {
    return this.registry.models.has(model);
  }

  lookupMethod(model: string, method: string): MethodSpec | 'private' | undefined {
    return this.methods.lookup(model, method);
  }

  call(env: Env, model: string, method: MethodSpec, ids: readonly number[] | null, positional: readonly unknown[], named: Readonly<Record<string, unknown>>): unknown {
    const info = this.registry.get(model);
    if (!info) throw userError(`Object ${model} doesn't exist`);
    const handler = handlerFor(method.name);
    if (!handler) throw attributeError(`The method '${model}.${method.name}' does not exist`);
    const args = bindArguments(`${methodOwner(this.version, model, method.name)}.${method.name}`, method, positional, named);
    const context = env.context;
    const request: Request = {
      version: this.version,
      registry: this.registry,
      access: this.access,
      statements: this.statements,
      env,
      model: info,
      ids: method.decorator === 'records' ? (ids ?? []) : [],
      args,
      now: this.clock(),
      activeTest: Object.hasOwn(context, 'active_test') ? pyTruthy(context['active_test']) : true,
      tz: this.requestZone(env),
      userPreferences: () => this.userPreferences(env.uid),
    };
    return handler(request);
  }

  /** `env.tz`: the context's `tz` if it names a zone, else the user's, else UTC. */
  private requestZone(env: Env): string {
    const fromContext = env.context['tz'];
    if (typeof fromContext === 'string' && fromContext && isKnownZone(fromContext)) return fromContext;
    const own = this.userPreferences(env.uid).tz;
    return own && isKnownZone(own) ? own : 'UTC';
  }

  private userPreferences(uid: number): UserPreferences {
    let preferences = this.preferences.get(uid);
    if (!preferences) {
      const row = this.statements.get<{ lang: string | null; tz: string | null }>(sql`SELECT "lang", "tz" FROM "res_users" WHERE "id" = ${param(uid)}`);
      preferences = { lang: row?.lang ?? null, tz: row?.tz ?? null };
      this.preferences.set(uid, preferences);
    }
    return preferences;
  }
}
