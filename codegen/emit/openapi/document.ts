/**
 * @module `generated/openapi.json`: the OpenAPI 3.1 description of every data route, derived from
 * the catalogue: each resource's routes with their kinds' operations (codegen/kinds/), and the
 * components they share (components.ts). The gateway serves it with `servers` set to its public
 * base URL.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { banner, GENERATOR } from '../../banner';
import { routesOf } from '../../kinds/kind-emitters';
import type { CatalogueModel } from '../../model/catalogue-model';
import { components } from './components';

export function openApiDocument(model: CatalogueModel): OpenAPIV3_1.Document {
  const paths: OpenAPIV3_1.PathsObject = {};
  for (const domain of model.domains)
    for (const resource of domain.resources)
      for (const route of routesOf(resource)) paths[route.openApiPath] = { get: route.emitter.operation(resource) } as OpenAPIV3_1.PathItemObject;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Operations data API',
      version: model.version,
      summary: 'Read-only JSON API over the organisation’s ERP.',
      description:
        'Read-only HTTP JSON interface for consulting operational data of the organisation (analytic, approvals, electricity, events, fleet, IT, purchase, space, sprint, stock, travel). Every data route is GET, needs `Authorization: Bearer <API key>` and answers `{data, meta}` (lists) or `{data}` (detail). Errors answer `{error: {code, message}}`. Any other method than GET or HEAD on a route answers 405 with an HTML page from the routing layer and `Allow: GET, HEAD`; an unexpected failure of the gateway itself (a bug) answers 500 `internal_error`, logged, never detailed. Neither is declared on the GET operations.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/', description: 'The serving gateway; the copy it serves names its public base URL.' }],
    security: [{ bearerAuth: [] }],
    tags: model.domains.map((d) => ({ name: d.domain, description: `${d.title}: ${d.description}` })),
    paths,
    components: components(model),
    'x-generated-by': `${GENERATOR}; ${banner('catalogue/*.yaml')}`,
  } as OpenAPIV3_1.Document;
}
