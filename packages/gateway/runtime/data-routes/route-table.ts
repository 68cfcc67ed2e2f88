/** @module The generic handlers the generated routers register each resource on. */
import type { RequestHandler } from 'express';
import type { ResourceSpec } from '../resource-spec';

export interface ResourceHandlers {
  list(resource: ResourceSpec): RequestHandler;
  detail(resource: ResourceSpec): RequestHandler;
}
