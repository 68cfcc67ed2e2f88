/** @module The list route in the OpenAPI document. */
import type { OpenAPIV3_1 } from 'openapi-types';
import { EXPORT_FORMAT_NAMES, EXPORT_FORMATS, formatList } from '../../emit/export-formats';
import { dataResponse, errorResponses, expandParameter, filterParameter, ref, scopeSentence, SERVER_ERRORS } from '../../emit/openapi/components';
import type { ResourceModel } from '../../model/catalogue-model';
import { operationId, recordTypeName } from '../../model/names';

/** The compatibility this path keeps, in its operation's description. */
function exportCompatibility(resource: ResourceModel): string {
  return `Exports of every matching record (${formatList()}) are \`GET /api/v1/${resource.path}/export\`. For compatibility, this path still answers one when asked by \`format=${EXPORT_FORMAT_NAMES.join('|')}\` or by \`Accept\` (${EXPORT_FORMAT_NAMES.map((name) => `\`${EXPORT_FORMATS[name].mediaType}\``).join(', ')}), with \`csv_formulas\` as there: the export route's answer. It is not declared here, so that a typed client sees one answer, the JSON page.`;
}

/**
 * The list route's operation: a JSON page, and only that, so that a typed client's `data` is the page
 * (`createClient<paths>()`, then `data.data`). Exports have their own operation (the export kind); an
 * export asked here by `format` or `Accept`, as before the export route existed, is still answered:
 * the description says so, and that it is the export route's answer.
 */
export function listOperation(resource: ResourceModel): OpenAPIV3_1.OperationObject {
  const record = recordTypeName(resource.domain, resource.name);
  return {
    operationId: operationId('list', resource.domain, resource.name),
    tags: [resource.domain],
    summary: `List ${resource.title.toLowerCase()}`,
    description: `${resource.description}\n\nDefault order: \`${resource.defaultOrderText}\`.${scopeSentence(resource)}\n\n${exportCompatibility(resource)}`,
    ...(resource.deprecated ? { deprecated: true } : {}),
    parameters: [
      ...['Limit', 'Offset', 'SinceId', 'Total'].map((name) => ref(name, 'parameters')),
      {
        name: 'order',
        in: 'query',
        required: false,
        description: `Sort: \`field\`, \`field asc\` or \`field desc\`, several keys comma-separated. Sortable fields: ${
          Object.keys(resource.sortable)
            .map((f) => `\`${f}\``)
            .join(', ') || 'none'
        }. \`id\` is always appended as the last key. Not with \`since_id\`. Unset values: a number that is not set is read as 0 and sorts as 0 (first ascending, last descending, beside the zeros; before negative numbers ascending); a date or text that is not set (null) sorts after every value ascending and before every value descending. Ties are broken by \`id\`, except on date-times: the ERP keeps fractions of a second that answers round off, so records showing the same date-time are ordered by that hidden fraction first.`,
        schema: { type: 'string', maxLength: 256 },
      },
      ref('Fields', 'parameters'),
      ref('ChangedSince', 'parameters'),
      expandParameter(resource),
      ...resource.filters.map(filterParameter),
      ref('IfNoneMatch', 'parameters'),
    ],
    responses: {
      '200': dataResponse('A page of records, with an `ETag`.', ['data', 'meta'], { data: { type: 'array', items: ref(record) }, meta: ref('ListMeta') }),
      '304': ref('NotModified', 'responses'),
      ...errorResponses([400, 401, 403, 404, 422, ...SERVER_ERRORS]),
    },
  };
}
