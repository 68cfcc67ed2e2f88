/**
 * @module `GET /web/version` (Odoo 19's replacement of `common.version` for JSON-2 clients):
 * `{"version_info": [...], "version": "19.0"}`.
 */
import { dumpsJson } from '../python-json';
import type { SandboxReply } from '../reply';
import type { VersionTraits } from '../version-traits';

export function handleWebVersion(traits: VersionTraits): SandboxReply {
  const body = { version_info: [...traits.serverVersionInfo], version: traits.serverVersion };
  return { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: dumpsJson(body) };
}
