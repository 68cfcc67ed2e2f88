/**
 * @module The interface every ERP transport implements (JSON-2, JSON-RPC, XML-RPC). The gateway's
 * logic talks to this interface only; the choice of transport is made once, at start-up.
 */
import type { TransportName } from '../config';

/** The ERP's major version as `common.version` / `/web/version` report it. */
export interface ErpVersion {
  readonly major: number;
  readonly text: string;
}

/** Who calls: the client's own API key, and the uid it belongs to. */
export interface ErpCredentials {
  readonly uid: number;
  readonly key: string;
}

export interface ErpCall {
  readonly model: string;
  readonly method: string;
  /** Record ids for record methods (read, has_access, 18+'s has_group); null for `@api.model` methods. */
  readonly ids: readonly number[] | null;
  /** Named arguments (JSON-2 sends only these; RPC sends them as execute_kw's kwargs). */
  readonly kwargs: Readonly<Record<string, unknown>>;
}

export interface ErpTransport {
  readonly name: TransportName;
  /** Version of the ERP (no credentials needed). */
  version(deadline: AbortSignal): Promise<ErpVersion>;
  /**
   * The uid a key belongs to, or `false` when the ERP refuses it. RPC transports can only ask whether
   * the key belongs to the configured technical login; JSON-2 learns the key's own user.
   */
  identify(key: string, deadline: AbortSignal): Promise<number | false>;
  call(credentials: ErpCredentials, call: ErpCall, deadline: AbortSignal): Promise<unknown>;
}
