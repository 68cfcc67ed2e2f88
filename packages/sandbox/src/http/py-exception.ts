/**
 * @module Python exceptions as the transports see them. Odoo's transports render an exception
 * from its class alone (fault code, JSON-RPC `data.name`, JSON-2 status), so every error reaching
 * a transport is first turned into a `PyException`: qualified class name, message, `args`.
 */
import { OdooException } from '../orm/types';

export class PyException extends Error {
  constructor(
    /** Qualified class name, as JSON-RPC's `data.name` shows it: `odoo.exceptions.AccessDenied`. */
    readonly pythonName: string,
    message: string,
    /** The exception's `args`, as JSON-RPC's `data.arguments` shows them. */
    readonly pyArgs: readonly unknown[] = [message],
  ) {
    super(message);
  }
}

/** `odoo.exceptions.AccessDenied()`: the credential failure of every transport. */
export function accessDenied(message = 'Access Denied'): PyException {
  return new PyException('odoo.exceptions.AccessDenied', message);
}

/**
 * Turns anything thrown below a transport into the Python exception Odoo would have raised. Any
 * other error is a bug in the sandbox: it is reported, and answered as Odoo answers its own bugs.
 */
export function asPyException(error: unknown, reportBug: (error: unknown) => void): PyException {
  if (error instanceof PyException) return error;
  if (error instanceof OdooException) return new PyException(error.exceptionName, error.message);
  reportBug(error);
  const message = error instanceof Error ? error.message : String(error);
  return new PyException('builtins.Exception', message);
}

/** `KeyError(key)`: its text is the key's repr, its `args` the key itself. */
export function keyError(key: string): PyException {
  return new PyException('builtins.KeyError', `'${key}'`, [key]);
}

/** `UserError` and its subclasses (19's hierarchy; 17 and 18 lack only `LockError`). */
const USER_ERROR_FAMILY: ReadonlySet<string> = new Set([
  'odoo.exceptions.UserError',
  'odoo.exceptions.ValidationError',
  'odoo.exceptions.AccessError',
  'odoo.exceptions.AccessDenied',
  'odoo.exceptions.MissingError',
  'odoo.exceptions.LockError',
]);

export function isUserError(error: PyException): boolean {
  return USER_ERROR_FAMILY.has(error.pythonName);
}

/** `http_status` of Odoo 19's exception classes, which JSON-2 answers with; others are 500. */
export function json2Status(error: PyException): number {
  switch (error.pythonName) {
    case 'odoo.exceptions.AccessError':
    case 'odoo.exceptions.AccessDenied':
      return 403;
    case 'odoo.exceptions.MissingError':
      return 404;
    case 'odoo.exceptions.LockError':
      return 409;
    default:
      return isUserError(error) ? 422 : 500;
  }
}

/**
 * The text `traceback.format_exception` would end with. The frames are not Odoo's (clients must
 * treat `debug` as opaque); the last line is Python's: builtins by bare name, others qualified.
 */
export function formatTraceback(error: PyException): string {
  const className = error.pythonName.startsWith('builtins.') ? error.pythonName.slice('builtins.'.length) : error.pythonName;
  const last = error.message === '' ? className : `${className}: ${error.message}`;
  return `Traceback (most recent call last):\n  File "/sandbox/odoo/http.py", line 1, in dispatch\n${last}\n`;
}

/** Python's type name of a decoded wire value, for the `TypeError` messages Odoo would show. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  if (value instanceof Uint8Array) return 'bytes';
  return 'dict';
}
