/**
 * @module `generated/resources/<domain>.ts`: one frozen `ResourceSpec` per resource, the data the
 * runtime serves from (fields and their ERP sources, filters, scope, orders, query schemas).
 */
import type { DomainModel, ResourceModel } from '../model/catalogue-model';
import { domainResourcesConstName, recordTypeName, resourceConstName } from '../model/names';
import type { QuerySchemas, ResourceSpec } from '../../packages/gateway/runtime/resource-spec';
import type { RouteKind } from '../../packages/gateway/runtime/route-kinds';
import { KIND_EMITTERS } from '../kinds/kind-emitters';
import { literal, printSourceFile } from './ts-printer';

function resourceSpec(resource: ResourceModel): ResourceSpec {
  return {
    path: resource.path,
    domain: resource.domain,
    name: resource.name,
    model: resource.model,
    defaultOrder: resource.defaultOrder,
    scope: resource.scope,
    fields: resource.fields.map(({ description: _d, sortable: _s, ...field }) => field),
    filters: resource.filters.map(({ description: _d, example: _e, ...filter }) => filter),
    relations: resource.relations.map(({ description: _d, ...relation }) => relation),
    sortable: resource.sortable,
    deprecated: resource.deprecated,
    ...(resource.aggregate ? { aggregate: resource.aggregate } : {}),
    ...(resource.cache ? { cache: resource.cache } : {}),
    ...querySchemas(resource),
  };
}

/** The query schema of each kind's route, `<kind>QuerySchema`, in the kinds' order. */
function querySchemas(resource: ResourceModel): QuerySchemas {
  const schemas: Record<string, object> = {};
  for (const kind of Object.keys(KIND_EMITTERS) as RouteKind[]) schemas[`${kind}QuerySchema`] = KIND_EMITTERS[kind].querySchema(resource);
  return schemas as QuerySchemas;
}

export function emitDomainResources(domain: DomainModel): string {
  return printSourceFile(
    {
      statements: [
        "import type { RecordSpec, ResourceSpec } from '../../runtime/resource-spec';",
        `import type { ${domain.resources.map((r) => recordTypeName(domain.domain, r.name)).join(', ')} } from '../types/${domain.domain}';`,
        ...domain.resources.map(
          (resource) =>
            `/** ${resource.path}: ${resource.title}. */\nexport const ${resourceConstName(domain.domain, resource.name)}: RecordSpec<${recordTypeName(domain.domain, resource.name)}> = deepFreeze(${literal(resourceSpec(resource))});`,
        ),
        `export const ${domainResourcesConstName(domain.domain)}: readonly ResourceSpec[] = [${domain.resources.map((r) => resourceConstName(domain.domain, r.name)).join(', ')}];`,
        "function deepFreeze<T>(value: T): T {\n  if (value && typeof value === 'object') {\n    for (const inner of Object.values(value)) deepFreeze(inner);\n    Object.freeze(value);\n  }\n  return value;\n}",
      ],
    },
    domain.file,
  );
}
