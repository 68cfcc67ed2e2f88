/**
 * @module Everything the transports do differently per imitated Odoo version, in one table, so
 * that no handler tests a version number itself (reference: odoo-external-api.md, section 12).
 */
import type { OdooVersion } from '../orm/types';

export interface VersionTraits {
  readonly version: OdooVersion;
  /** `release.version` / `release.serie`: "17.0". */
  readonly serverVersion: string;
  /** `release.version_info`: `[17, 0, 0, "final", 0, ""]`. */
  readonly serverVersionInfo: readonly [number, number, number, string, number, string];
  /** JSON-RPC `error.code` of server errors (an arbitrary value in Odoo's own words). */
  readonly jsonRpcErrorCode: number;
  /** The route type named in the content-type refusal ("… is type='json'"). */
  readonly jsonRouteType: 'json' | 'jsonrpc';
  /** Status of a non-JSON `Content-Type` on a JSON route: 400, or 415 with an `Accept` header. */
  readonly contentTypeRefusal: 400 | 415;
  /** `POST /json/2/<model>/<method>` and `GET /web/version` exist. */
  readonly hasJson2: boolean;
  /** `object` calls: 19 checks the service method name before the credentials, 17/18 after. */
  readonly methodNameBeforeCredentials: boolean;
  /** 18.0 refuses `^(_.*|init)$` names before looking the model up; 17.0 and 19 after it. */
  readonly privateNameBeforeModel: boolean;
  /** Text of the `AttributeError` for a method the model does not have. */
  missingMethodMessage(model: string, method: string): string;
  /** Text of the `AccessError` for a private method. */
  privateMethodMessage(model: string, method: string): string;
  /** Python's text when `args[0]` is read from empty positional arguments. */
  readonly emptyArgsMessage: string;
}

const PUBLIC_METHOD_WORDING = {
  missingMethodMessage: (model: string, method: string) => `The method '${model}.${method}' does not exist`,
  privateMethodMessage: (model: string, method: string) => `Private methods (such as '${model}.${method}') cannot be called remotely.`,
};

const TRAITS: Readonly<Record<OdooVersion, VersionTraits>> = {
  17: {
    version: 17,
    serverVersion: '17.0',
    serverVersionInfo: [17, 0, 0, 'final', 0, ''],
    jsonRpcErrorCode: 200,
    jsonRouteType: 'json',
    contentTypeRefusal: 400,
    hasJson2: false,
    methodNameBeforeCredentials: false,
    privateNameBeforeModel: false,
    ...PUBLIC_METHOD_WORDING,
    emptyArgsMessage: 'tuple index out of range',
  },
  18: {
    version: 18,
    serverVersion: '18.0',
    serverVersionInfo: [18, 0, 0, 'final', 0, ''],
    jsonRpcErrorCode: 200,
    jsonRouteType: 'json',
    contentTypeRefusal: 400,
    hasJson2: false,
    methodNameBeforeCredentials: false,
    privateNameBeforeModel: true,
    missingMethodMessage: (model, method) => `The method '${method}' does not exist on the model '${model}'`,
    privateMethodMessage: (_model, method) => `Private methods (such as ${method}) cannot be called remotely.`,
    emptyArgsMessage: 'tuple index out of range',
  },
  19: {
    version: 19,
    serverVersion: '19.0',
    serverVersionInfo: [19, 0, 0, 'final', 0, ''],
    jsonRpcErrorCode: 0,
    jsonRouteType: 'jsonrpc',
    contentTypeRefusal: 415,
    hasJson2: true,
    methodNameBeforeCredentials: true,
    privateNameBeforeModel: false,
    ...PUBLIC_METHOD_WORDING,
    emptyArgsMessage: 'list index out of range',
  },
};

export function versionTraits(version: OdooVersion): VersionTraits {
  return TRAITS[version];
}

/** 18.0's `regex_private`: checked on the name alone, before the model. */
export const PRIVATE_NAME_18 = /^(_.*|init)$/;
