/**
 * @module What the RPC services need to answer a call: the ORM, the imitated version's traits,
 * the one database's name and the credential checks.
 */
import type { Orm } from '../../orm/types';
import type { Credentials } from '../../security/credentials';
import { PyException } from '../py-exception';
import type { VersionTraits } from '../version-traits';

export interface RpcContext {
  readonly orm: Orm;
  readonly traits: VersionTraits;
  /** The only database the sandbox serves. */
  readonly database: string;
  readonly credentials: Credentials;
  /** Where errors that are bugs of the sandbox (not Odoo exceptions) are reported. */
  readonly reportBug: (error: unknown) => void;
}

/** `Registry(db)`: any other name fails as PostgreSQL would refuse the connection (fault 1). */
export function openRegistry(context: RpcContext, db: unknown): void {
  if (db === context.database) return;
  throw new PyException(
    'psycopg2.OperationalError',
    `connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: FATAL:  database "${String(db)}" does not exist\n`,
  );
}
