/**
 * @module The gateway's one error type and the registry of its codes. Every failure a client can see
 * is a `GatewayError`; `renderError` (in http/error-handler.ts) is the only place that turns one into
 * a response. The codes equal those of the OpenAPI error schema (a test checks both ways).
 */

export const ERROR_CODES = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid_value: 422,
  rate_limited: 429,
  internal_error: 500,
  bad_gateway: 502,
  unavailable: 503,
  gateway_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface GatewayErrorOptions {
  /** Extra response headers (WWW-Authenticate, Retry-After...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** What happened underneath: logged, never sent. */
  readonly cause?: unknown;
}

export class GatewayError extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    readonly code: ErrorCode,
    /** Safe to show to the client: no internals, no ERP message, no personal data. */
    message: string,
    options: GatewayErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.status = ERROR_CODES[code];
    this.headers = options.headers ?? {};
  }
}

export const badRequest = (message: string): GatewayError => new GatewayError('bad_request', message);
export const invalidValue = (message: string): GatewayError => new GatewayError('invalid_value', message);
export const notFound = (message = 'No such record.'): GatewayError => new GatewayError('not_found', message);
export const unauthorized = (message = 'A valid API key is required: Authorization: Bearer <key>.'): GatewayError =>
  new GatewayError('unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer' } });
export const forbidden = (message: string): GatewayError => new GatewayError('forbidden', message);
