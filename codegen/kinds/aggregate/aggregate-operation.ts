/** @module The aggregate route in the OpenAPI document: its parameters and each resource's typed groups. */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { DimensionSpec } from '../../../packages/gateway/runtime/resource-spec';
import { dataResponse, errorResponses, filterParameter, ref, scopeSentence, SERVER_ERRORS } from '../../emit/openapi/components';
import type { FieldModel, ResourceModel } from '../../model/catalogue-model';
import { operationId } from '../../model/names';
import { AGGREGATE_LIMITS, GRANULARITY_NAMES } from './aggregate-limits';

type Schema = OpenAPIV3_1.SchemaObject;

const nullable = (schema: Schema): Schema => {
  const type = schema.type as string;
  return { ...schema, type: [type, 'null'], ...(schema.enum ? { enum: [...schema.enum, null] } : {}) } as Schema;
};

/** `date_order:month`, `state`: how a dimension is asked (the first granularity for a date). */
export function dimensionSpellings(dimension: DimensionSpec): string[] {
  return dimension.kind === 'date' || dimension.kind === 'date-time' ? GRANULARITY_NAMES.map((g) => `${dimension.name}:${g}`) : [dimension.name];
}

/** Every key a group may hold for this dimension, with its schema. */
function dimensionProperties(dimension: DimensionSpec, field: FieldModel): Record<string, Schema> {
  switch (dimension.kind) {
    case 'boolean':
      return { [dimension.name]: { type: 'boolean', description: `${field.description} (an unset value counts as false).` } };
    case 'many2one_id':
      return { [dimension.name]: { type: ['integer', 'null'], description: `${field.description} \`null\`: the group of records without one.` } as Schema };
    case 'many2one_name':
      return {
        [dimension.name]: { type: ['string', 'null'], description: `${field.description} \`null\`: the group of records without one.` } as Schema,
        [`${dimension.name}:id`]: {
          type: ['integer', 'null'],
          description: `The id of the related record grouped by under \`${dimension.name}\` (to join with other answers).`,
        } as Schema,
      };
    case 'date':
    case 'date-time': {
      const format = dimension.kind === 'date' ? 'date' : 'date-time';
      const properties: Record<string, Schema> = {};
      for (const g of GRANULARITY_NAMES) {
        const key = `${dimension.name}:${g}`;
        properties[key] = { type: ['string', 'null'], description: `${field.description} By ${g}: ${LABELS[g]}. \`null\`: the group of records without one.` } as Schema;
        properties[`${key}:from`] = { type: ['string', 'null'], format, description: `First instant of the \`${key}\` bucket (included).` } as Schema;
        properties[`${key}:to`] = { type: ['string', 'null'], format, description: `End of the \`${key}\` bucket (excluded).` } as Schema;
      }
      return properties;
    }
    case 'value': {
      const { type, enum: values } = field;
      return {
        [dimension.name]: nullable({ type, ...(values ? { enum: [...values] } : {}), description: `${field.description} \`null\`: the group of records without one.` } as Schema),
      };
    }
  }
}

/** The ISO label of a bucket, by granularity (runtime: aggregate-groups.ts). */
const LABELS: Readonly<Record<(typeof GRANULARITY_NAMES)[number], string>> = {
  day: '`2026-03-05`',
  week: 'the date of its first day, a Sunday (`2026-03-01`)',
  month: '`2026-03`',
  quarter: '`2026-Q1`',
  year: '`2026`',
};

/** The schema of a group of this resource: every dimension key, `count`, every measure key. */
function groupSchema(resource: ResourceModel): Schema {
  const aggregate = resource.aggregate;
  const properties: Record<string, Schema> = {};
  for (const dimension of aggregate?.dimensions ?? [])
    Object.assign(properties, dimensionProperties(dimension, resource.fields.find((f) => f.name === dimension.name) as FieldModel));
  properties['count'] = { type: 'integer', minimum: 0, description: 'Records in the group.' };
  for (const measure of aggregate?.measures ?? [])
    for (const aggregator of measure.aggregators)
      properties[`${measure.name}:${aggregator}`] =
        aggregator === 'count_distinct'
          ? { type: 'integer', minimum: 0, description: `Distinct values of ${measure.name} in the group (unset ones not counted).` }
          : ({
              type: ['number', 'null'],
              description: `The ${aggregator} of ${measure.name} over the group's records where it is set; \`null\` when it is set on none.`,
            } as Schema);
  return { type: 'object', additionalProperties: false, required: ['count'], properties };
}

const list = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ') || 'none';

export function aggregateOperation(resource: ResourceModel): OpenAPIV3_1.OperationObject {
  const aggregate = resource.aggregate;
  const dimensions = aggregate?.dimensions ?? [];
  const measures = (aggregate?.measures ?? []).flatMap((m) => m.aggregators.map((a) => `${m.name}:${a}`));
  const dated = dimensions.filter((d) => d.kind === 'date' || d.kind === 'date-time').map((d) => d.name);
  return {
    operationId: operationId('aggregate', resource.domain, resource.name),
    tags: [resource.domain],
    summary: `Summarise ${resource.title.toLowerCase()}: counts and measures by group`,
    description: `The records of ${resource.path} grouped by the dimensions asked and counted (with sums, averages, extremes or distinct counts asked), computed by the ERP in one grouped read under the account's rights. The resource's named filters and scope apply as on its list.${scopeSentence(resource)} Date-time buckets are cut in UTC; weeks start on Sunday. Answers are cached, conditional (ETag) and exported (CSV, NDJSON) as the list's are.`,
    ...(resource.deprecated ? { deprecated: true } : {}),
    parameters: [
      {
        name: 'group_by',
        in: 'query',
        required: false,
        description: `Dimensions, comma-separated, at most ${AGGREGATE_LIMITS.dimensionsMax}: ${list(dimensions.map((d) => d.name))}.${
          dated.length ? ` A date or date-time one takes a granularity: \`${dated[0]}:month\` (\`day\`, \`week\`, \`month\`, \`quarter\`, \`year\`).` : ''
        } None: one group of every record.`,
        schema: { type: 'string', maxLength: 512 },
      },
      {
        name: 'measures',
        in: 'query',
        required: false,
        description: `What to compute per group besides \`count\` (always answered), comma-separated \`field:aggregator\`, at most ${AGGREGATE_LIMITS.measuresMax}: ${list(measures)}. Default: \`count\` alone.`,
        schema: { type: 'string', maxLength: 1024 },
      },
      {
        name: 'order',
        in: 'query',
        required: false,
        description:
          'Order of the groups: a dimension or measure as asked, or `count`, with `asc` or `desc`, comma-separated (`count desc`, `amount_total:sum desc`). The dimensions asked follow, ascending, so the order is the same from page to page. Default: by the dimensions asked, ascending (a many2one by the name of the related record); the group without a value comes last ascending.',
        schema: { type: 'string', maxLength: 256 },
      },
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: `Groups per answer, 1 to ${AGGREGATE_LIMITS.limitMax} (default ${AGGREGATE_LIMITS.limitDefault}; more is 422). When more groups remain, \`meta.next_offset\` says where the next page starts: groups are never cut silently.`,
        schema: { type: 'integer', minimum: 1, maximum: AGGREGATE_LIMITS.limitMax, default: AGGREGATE_LIMITS.limitDefault },
      },
      ref('Offset', 'parameters'),
      {
        name: 'format',
        in: 'query',
        required: false,
        description: 'json (default), csv or ndjson: the same groups (this page of them) as a file; `Accept` works too.',
        schema: { type: 'string', enum: ['json', 'csv', 'ndjson'] },
      },
      ref('CsvFormulas', 'parameters'),
      ...resource.filters.map(filterParameter),
      ref('IfNoneMatch', 'parameters'),
    ],
    responses: {
      '200': dataResponse(
        'The groups, in the order asked. CSV: one column per key of the groups asked; NDJSON: one group per line.',
        ['data', 'meta'],
        {
          data: { type: 'array', items: groupSchema(resource) },
          meta: {
            type: 'object',
            additionalProperties: false,
            required: ['limit', 'offset', 'next_offset', 'time_zone'],
            properties: {
              limit: { type: 'integer' },
              offset: { type: 'integer' },
              next_offset: { type: ['integer', 'null'], description: 'Where the next page of groups starts; `null` when this page holds the last group.' },
              time_zone: { type: 'string', enum: ['UTC'], description: 'The time zone date-time buckets are cut in.' },
            },
          },
        },
        { 'text/csv': { schema: { type: 'string' } }, 'application/x-ndjson': { schema: { type: 'string' } } },
      ),
      '304': ref('NotModified', 'responses'),
      ...errorResponses([400, 401, 403, 404, 422, ...SERVER_ERRORS]),
    },
  };
}
