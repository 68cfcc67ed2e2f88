/**
 * @module `generated/routers/<domain>.ts`: the table of a domain's routes, each resource's routes
 * (one per kind of route that applies to it, codegen/kinds/) with their paths, and
 * `generated/routers/index.ts` listing every domain's at its mount path. The runtime mounts each
 * route on its kind's handler (data-routes/route-table.ts). Built as ts-morph structures (imports,
 * constants), one array item per line, so the output reads like hand-written code.
 */
import { StructureKind, VariableDeclarationKind, type ImportDeclarationStructure, type VariableStatementStructure, type WriterFunction } from 'ts-morph';
import type { CatalogueModel, DomainModel } from '../model/catalogue-model';
import { routesOf } from '../kinds/kind-emitters';
import { domainResourcesConstName, domainRoutesConstName, resourceConstName } from '../model/names';
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
  const routes = domain.resources.flatMap((resource) =>
    routesOf(resource).map((route) => `{ path: '${route.path}', kind: '${route.kind}', resource: ${resourceConstName(domain.domain, resource.name)} }`),
  );
  return printSourceFile(
    {
      statements: [
        importOf(`${RUNTIME}/data-routes/route-table`, ['DataRoute'], true),
        importOf(`../resources/${domain.domain}`, constants),
        exportedConst(
          domainRoutesConstName(domain.domain),
          'readonly DataRoute[]',
          arrayOf(routes),
          `Routes of the ${domain.domain} domain (${routes.length} GET routes), mounted at /api/v1/${domain.domain}: each path with the kind of route that serves it.`,
        ),
      ],
    },
    domain.file,
  );
}

export function emitRouterIndex(model: CatalogueModel): string {
  return printSourceFile(
    {
      statements: [
        importOf(`${RUNTIME}/data-routes/route-table`, ['DomainRoutes'], true),
        importOf(`${RUNTIME}/resource-spec`, ['ResourceSpec'], true),
        ...model.domains.flatMap((d) => [importOf(`./${d.domain}`, [domainRoutesConstName(d.domain)]), importOf(`../resources/${d.domain}`, [domainResourcesConstName(d.domain)])]),
        exportedConst(
          'DOMAIN_ROUTES',
          'readonly DomainRoutes[]',
          arrayOf(model.domains.map((d) => `{ mount: '/${d.domain}', routes: ${domainRoutesConstName(d.domain)} }`)),
          "Every domain's routes with the path they are mounted at, in domain order.",
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
