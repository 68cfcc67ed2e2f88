/**
 * @module The seam between the sandbox's ORM (models, store, domains, methods) and its HTTP
 * transports (XML-RPC, JSON-RPC, JSON-2). Transports authenticate the caller, then hand the call
 * to an `Orm`; the ORM raises `OdooException`s that each transport renders its own way.
 */

/** Odoo major version the sandbox imitates; it switches the version-dependent behaviours. */
export type OdooVersion = 17 | 18 | 19;

/** Who calls, with which context (only the call's own context: Odoo adds none over the wire). */
export interface Env {
  readonly uid: number;
  readonly context: Readonly<Record<string, unknown>>;
}

export interface ParamSpec {
  readonly name: string;
  /** A parameter without a default must be bound. */
  readonly required: boolean;
  /** Python `**kwargs`: absorbs unknown keyword arguments (search_read's read_kwargs). */
  readonly variadicKeywords?: boolean;
  /** Python `*args`: absorbs extra positional arguments (the generic `action_*` methods). */
  readonly variadicPositional?: boolean;
}

export interface MethodSpec {
  readonly name: string;
  /** `@api.model` (no ids) or a record method (ids first). */
  readonly decorator: 'model' | 'records';
  readonly params: readonly ParamSpec[];
}

/** A Python exception as Odoo would raise it: the transports map `exceptionName` to faults/statuses. */
export class OdooException extends Error {
  constructor(
    /** Qualified class name, as JSON-RPC's `data.name`: `odoo.exceptions.AccessError`, `builtins.ValueError`... */
    readonly exceptionName: OdooExceptionName,
    message: string,
  ) {
    super(message);
  }
}

export type OdooExceptionName =
  | 'odoo.exceptions.UserError'
  | 'odoo.exceptions.ValidationError'
  | 'odoo.exceptions.AccessError'
  | 'odoo.exceptions.AccessDenied'
  | 'odoo.exceptions.MissingError'
  | 'builtins.ValueError'
  | 'builtins.TypeError'
  | 'builtins.KeyError'
  | 'builtins.IndexError'
  | 'builtins.AttributeError'
  | 'builtins.NameError'
  | 'builtins.Exception'
  | 'builtins.AssertionError'
  | 'psycopg2.errors.UndefinedFunction'
  | 'psycopg2.errors.SyntaxError'
  | 'psycopg2.errors.InvalidRowCountInLimitClause'
  | 'psycopg2.errors.InvalidRowCountInResultOffsetClause';

export interface Orm {
  readonly version: OdooVersion;
  hasModel(model: string): boolean;
  /** `undefined` when the model has no such public method; `'private'` for `_x` names (and 19's `@api.private`). */
  lookupMethod(model: string, method: string): MethodSpec | 'private' | undefined;
  /**
   * Binds the arguments as Python would (positional first, then keywords; a missing, unknown or
   * duplicate argument raises `builtins.TypeError` with Python's message) and runs the method.
   * `ids` is the recordset for record methods, `null` for `@api.model` ones.
   * Returns the method's value as JSON-like data; `null` stands for Python's `None` (18/19's
   * `check_access_rights` and 18's `check_access`), which each transport renders its own way.
   */
  call(env: Env, model: string, method: MethodSpec, ids: readonly number[] | null, positional: readonly unknown[], named: Readonly<Record<string, unknown>>): unknown;
}
