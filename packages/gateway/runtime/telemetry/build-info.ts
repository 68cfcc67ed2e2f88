/**
 * @module What the gateway is, for `odg_build_info`: the API version the catalogue declares and a
 * short hash of the compiled catalogue (every resource, model, field and filter the routes serve),
 * so two gateways answering differently can be told apart at a glance.
 */
import { hash } from 'node:crypto';
import openapi from '../../generated/openapi.json';
import { RESOURCES } from '../../generated/routers';

export function buildInfo(): { readonly version: string; readonly catalogueHash: string } {
  return { version: String(openapi.info.version), catalogueHash: hash('sha256', JSON.stringify(RESOURCES)).slice(0, 12) };
}
