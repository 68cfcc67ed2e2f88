/**
 * @module `generated/routers/<domain>.ts`: an Express router per domain that registers the list and
 * detail route of each resource on the runtime's generic handlers, and `generated/routers/index.ts`
 * listing them all.
 */
import type { CatalogueModel, DomainModel } from '../model/catalogue-model';
import { domainResourcesConstName, resourceConstName, routerFactoryName } from '../model/names';
import { printSourceFile } from './ts-printer';

export function emitDomainRouter(domain: DomainModel): string {
  const constants = domain.resources.map((r) => resourceConstName(domain.domain, r.name));
  const routes = domain.resources.flatMap((resource) => {
    const constant = resourceConstName(domain.domain, resource.name);
    return [
      `router.get('/${resource.name}', handlers.list(${constant}));`,
      `router.get('/${resource.name}/:id', handlers.detail(${constant}));`,
    ];
  });
  return printSourceFile(
    {
      statements: [
        "import { Router } from 'express';",
        "import type { ResourceHandlers } from '../../runtime/resource-handlers';",
        `import { ${constants.join(', ')} } from '../resources/${domain.domain}';`,
        `/** Routes of the ${domain.domain} domain (${domain.resources.length * 2} GET routes), mounted at /api/v1/${domain.domain}. */\nexport function ${routerFactoryName(domain.domain)}(handlers: ResourceHandlers): Router {\n  const router = Router();\n  ${routes.join('\n  ')}\n  return router;\n}`,
      ],
    },
    domain.file,
  );
}

export function emitRouterIndex(model: CatalogueModel): string {
  const imports = model.domains.flatMap((d) => [
    `import { ${routerFactoryName(d.domain)} } from './${d.domain}';`,
    `import { ${domainResourcesConstName(d.domain)} } from '../resources/${d.domain}';`,
  ]);
  return printSourceFile(
    {
      statements: [
        "import type { Router } from 'express';",
        "import type { ResourceHandlers } from '../../runtime/resource-handlers';",
        "import type { ResourceSpec } from '../../runtime/resource-spec';",
        ...imports,
        `/** Every domain router with the path it is mounted at, in domain order. */\nexport const DOMAIN_ROUTERS: readonly { readonly mount: string; readonly create: (handlers: ResourceHandlers) => Router }[] = [${model.domains
          .map((d) => `{ mount: '/${d.domain}', create: ${routerFactoryName(d.domain)} }`)
          .join(', ')}];`,
        `/** Every resource served, in domain then resource order. */\nexport const RESOURCES: readonly ResourceSpec[] = [${model.domains
          .map((d) => `...${domainResourcesConstName(d.domain)}`)
          .join(', ')}];`,
      ],
    },
    'catalogue/*.yaml',
  );
}
