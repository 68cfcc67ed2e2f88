/**
 * @module What can go wrong when talking to the ERP, as values the rest of the gateway branches on.
 * Each transport translates its own wire errors (XML-RPC faults, JSON-RPC error objects, JSON-2
 * statuses) into these once; nothing else parses ERP errors.
 */

/** Classes of Odoo exceptions the gateway distinguishes. */
export type ErpFaultKind =
  /** Bad credentials (AccessDenied, or JSON-2's 401). */
  | 'access_denied'
  /** Missing access right, record rule, field group (AccessError). */
  | 'access_error'
  /** UserError, ValidationError, MissingError and the like. */
  | 'user_error'
  /** Unknown model or method (JSON-2 404). */
  | 'not_found'
  /** Anything else: ValueError, KeyError, a server bug. */
  | 'server_error';

/** The ERP answered, in its protocol, with an exception. */
export class ErpFault extends Error {
  constructor(
    readonly kind: ErpFaultKind,
    /** Odoo's exception class (`odoo.exceptions.AccessError`...) when the wire says it. */
    readonly erpName: string,
    message: string,
  ) {
    super(message);
    this.name = 'ErpFault';
  }

  /** The model named in an AccessError ("... (fleet.vehicle.odometer) records."), if any. */
  get model(): string | undefined {
    return /\(([a-z0-9_]+(?:\.[a-z0-9_]+)+)\)/.exec(this.message)?.[1];
  }
}

/** The ERP could not be reached, or answered with something that is not its protocol. */
export class ErpUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ErpUnavailable';
  }
}

/**
 * The ERP answers, but does not offer what the configuration asks for (ERP_TRANSPORT=json2 against an
 * Odoo before 19, or no ERP_LOGIN where only RPC is offered): a setting to change, not a fault that
 * goes away by asking again. The message names the setting and the ERP's version.
 */
export class ErpTransportMissing extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ErpTransportMissing';
  }
}

/**
 * The gateway's own bound on ERP calls is reached: as many calls in flight as ERP_MAX_CONCURRENCY and
 * as many waiting as ERP_MAX_QUEUE. The ERP was not asked; asking again shortly may succeed.
 */
export class ErpBusy extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ErpBusy';
  }
}

/** The ERP did not answer within the configured timeout. */
export class ErpTimeout extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ErpTimeout';
  }
}

/** Maps an Odoo exception class name to the gateway's kind. */
export function faultKindOf(erpName: string): ErpFaultKind {
  if (erpName.endsWith('.AccessDenied')) return 'access_denied';
  if (erpName.endsWith('.AccessError')) return 'access_error';
  if (/\.(UserError|ValidationError|MissingError|RedirectWarning|LockError)$/.test(erpName)) return 'user_error';
  return 'server_error';
}

/**
 * An ERP failure as the log may show it at `info` and above: the class of the failure and the
 * gateway's own words, never the ERP's. Odoo's messages quote record values (names, phone numbers,
 * e-mail addresses), which are personal data; the raw message is logged only at `debug`.
 */
export function erpErrorSummary(error: unknown): string {
  if (error instanceof ErpFault) return `ErpFault ${error.erpName} (${error.kind})`;
  if (error instanceof ErpUnavailable || error instanceof ErpTimeout || error instanceof ErpTransportMissing) return `${error.name}: ${error.message}`;
  return error instanceof Error ? error.name : typeof error;
}
