/**
 * @module `generated/routers/<domain>.ts`: an Express router per domain that registers the list and
 * detail route of each resource on the runtime's generic handlers, and `generated/routers/index.ts`
 * listing them all. Built as ts-morph structures (imports, a function, constants), one array item per
 * line, so the output reads like hand-written code.
 */
import { StructureKind, VariableDeclarationKind, type ImportDeclarationStructure, type VariableStatementStructure, type WriterFunction } from 'ts-morph';
import type { CatalogueModel, DomainModel } from '../model/catalogue-model';
import { domainResourcesConstName, resourceConstName, routerFactoryName } from '../model/names';
import { printSourceFile } from './ts-printer';

const RUNTIME = '../../runtime';

function importOf(moduleSpecifier: string, names: readonly string[], isTypeOnly = false): ImportDeclarationStructure {
  return { kind: StructureKind.ImportDeclaration, moduleSpecifier, namedImports: [...names], isTypeOnly };
}

/** An array literal with one item per line. */
function arrayOf(items: readonly string[]): WriterFunction {
  return (writer) => {
    writer.write('[').newLine();
    writer.indent(() => {
      for (const item of items) writer.write(`${item},`).newLine();
    });
    writer.write(']');
  };
}

function exportedConst(name: string, type: string, initializer: WriterFunction, doc: string): VariableStatementStructure {
  return {
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [doc],
    declarations: [{ name, type, initializer }],
  };
}

export function emitDomainRouter(domain: DomainModel): string {
  const constants = domain.resources.map((r) => resourceConstName(domain.domain, r.name));
  const routes = domain.resources.flatMap((resource) => {
    const constant = resourceConstName(domain.domain, resource.name);
    return [`router.get('/${resource.name}', handlers.list(${constant}));`, `router.get('/${resource.name}/:id', handlers.detail(${constant}));`];
  });
  return printSourceFile(
    {
      statements: [
        importOf('express', ['Router'], true),
        importOf(`${RUNTIME}/http/exact-routing`, ['exactRouter']),
        importOf(`${RUNTIME}/data-routes/route-table`, ['ResourceHandlers'], true),
        importOf(`../resources/${domain.domain}`, constants),
        {
          kind: StructureKind.Function,
          isExported: true,
          name: routerFactoryName(domain.domain),
          docs: [`Routes of the ${domain.domain} domain (${domain.resources.length * 2} GET routes), mounted at /api/v1/${domain.domain}.`],
          parameters: [{ name: 'handlers', type: 'ResourceHandlers' }],
          returnType: 'Router',
          statements: ['const router = exactRouter();', ...routes, 'return router;'],
        },
      ],
    },
    domain.file,
  );
}

export function emitRouterIndex(model: CatalogueModel): string {
  return printSourceFile(
    {
      statements: [
        importOf('express', ['Router'], true),
        importOf(`${RUNTIME}/data-routes/route-table`, ['ResourceHandlers'], true),
        importOf(`${RUNTIME}/resource-spec`, ['ResourceSpec'], true),
        ...model.domains.flatMap((d) => [importOf(`./${d.domain}`, [routerFactoryName(d.domain)]), importOf(`../resources/${d.domain}`, [domainResourcesConstName(d.domain)])]),
        exportedConst(
          'DOMAIN_ROUTERS',
          'readonly { readonly mount: string; readonly create: (handlers: ResourceHandlers) => Router }[]',
          arrayOf(model.domains.map((d) => `{ mount: '/${d.domain}', create: ${routerFactoryName(d.domain)} }`)),
          'Every domain router with the path it is mounted at, in domain order.',
        ),
        exportedConst(
          'RESOURCES',
          'readonly ResourceSpec[]',
          arrayOf(model.domains.map((d) => `...${domainResourcesConstName(d.domain)}`)),
          'Every resource served, in domain then resource order.',
        ),
      ],
    },
    'catalogue/*.yaml',
  );
}
