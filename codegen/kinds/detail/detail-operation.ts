/** @module The detail route in the OpenAPI document. */
import type { OpenAPIV3_1 } from 'openapi-types';
import { dataResponse, errorResponses, expandParameter, ref, scopeSentence, SERVER_ERRORS, UNREADABLE_FIELDS } from '../../emit/openapi/components';
import type { ResourceModel } from '../../model/catalogue-model';
import { operationId, recordTypeName } from '../../model/names';

/** The detail route's operation: one record by its id. */
export function detailOperation(resource: ResourceModel): OpenAPIV3_1.OperationObject {
  return {
    operationId: operationId('get', resource.domain, resource.name),
    tags: [resource.domain],
    summary: `One record of ${resource.path}`,
    description: `A record of ${resource.path} by its id.${scopeSentence(resource)} A record outside the scope is 404.`,
    ...(resource.deprecated ? { deprecated: true } : {}),
    parameters: [ref('Id', 'parameters'), ref('Fields', 'parameters'), expandParameter(resource), ref('IfNoneMatch', 'parameters')],
    responses: {
      '200': dataResponse('The record.', ['data'], {
        data: ref(recordTypeName(resource.domain, resource.name)),
        meta: { type: 'object', additionalProperties: false, properties: { unreadable_fields: UNREADABLE_FIELDS, expanded: ref('ExpandedMeta') } },
      }),
      '304': ref('NotModified', 'responses'),
      ...errorResponses([400, 401, 403, 404, 422, ...SERVER_ERRORS]),
    },
  };
}
