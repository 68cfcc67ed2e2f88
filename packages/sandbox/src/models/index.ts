/**
 * @module The sandbox's model files, and the registry built from them. The ORM reads any list of
 * definitions (`buildRegistry`); which models the sandbox serves is decided here, so the ORM never
 * imports a model file.
 */
import type { ModelDef } from '../orm/model-def';
import { buildRegistry, type Registry } from '../orm/registry';
import { ANALYTIC_MODELS } from './analytic';
import { APPROVALS_MODELS } from './approvals';
import { BASE_MODELS } from './base';
import { ELECTRICITY_MODELS } from './electricity';
import { EVENTS_MODELS } from './events';
import { FLEET_MODELS } from './fleet';
import { IT_MODELS } from './it';
import { PRODUCT_ATTRIBUTE_MODELS } from './product-attributes';
import { PURCHASE_MODELS } from './purchase';
import { SPACE_MODELS } from './space';
import { SPRINT_MODELS } from './sprint';
import { STOCK_MODELS } from './stock';
import { TRAVEL_MODELS } from './travel';

/** Every model file of the sandbox, in dependency-free order (the seeder sorts them itself). */
export const MODEL_SOURCES: readonly (readonly ModelDef[])[] = [
  BASE_MODELS,
  PRODUCT_ATTRIBUTE_MODELS,
  ANALYTIC_MODELS,
  FLEET_MODELS,
  STOCK_MODELS,
  APPROVALS_MODELS,
  PURCHASE_MODELS,
  EVENTS_MODELS,
  SPACE_MODELS,
  SPRINT_MODELS,
  IT_MODELS,
  TRAVEL_MODELS,
  ELECTRICITY_MODELS,
];

let cached: Registry | undefined;

/** The registry of the sandbox's own model files, built and validated on first use. */
export function loadRegistry(): Registry {
  cached ??= buildRegistry(MODEL_SOURCES.flat());
  return cached;
}
