/** @module The `Deprecation` header of a data answer (decision D28), whatever its kind. */
import type { ResourceSpec } from '../resource-spec';

const DEPRECATED: Readonly<Record<string, string>> = Object.freeze({ Deprecation: 'true' });
const NONE: Readonly<Record<string, string>> = Object.freeze({});

/** D28: a deprecated resource, or a deprecated field or filter asked for, says so in a header. */
export function deprecationHeaders(resource: ResourceSpec, deprecated: readonly string[]): Readonly<Record<string, string>> {
  return resource.deprecated || deprecated.length ? DEPRECATED : NONE;
}
