/**
 * @module JSON Schemas of the raw query strings of a resource's routes, as ajv validates them at run
 * time: every value is a string as it arrives (an array when a key is repeated). An unknown key fails
 * `additionalProperties` (400); any other failure is an unusable value (422). Ranges, calendar dates
 * and clamping are checked by the runtime after this shape check.
 */
import { banner } from '../banner';
import type { FilterModel, ResourceModel } from '../model/catalogue-model';

const INTEGER = '^[0-9]{1,10}$';
const INTEGER_LIST = '^[0-9]{1,10}(,[0-9]{1,10})*$';
const NUMBER = '^-?([0-9]{1,15}(\\.[0-9]{1,6})?|\\.[0-9]{1,6})$';
const BOOLEAN = '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$';
const DATE_OR_DATE_TIME = '^[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?([Zz]|[+-][0-9]{2}(:?[0-9]{2})?)?)?$';

/** Longest text accepted in a text filter, and in `order` / `fields`. */
const MAX_TEXT = 256;
const MAX_LIST_TEXT = 2048;

const text = (pattern: string, maxLength = 64) => ({ type: 'string', pattern, maxLength });

function filterValueSchema(filter: FilterModel): object {
  switch (filter.type) {
    case 'integer':
      return text(INTEGER);
    case 'number':
      return text(NUMBER);
    case 'boolean':
      return text(BOOLEAN);
    case 'string':
      return { type: 'string', minLength: 1, maxLength: MAX_TEXT };
    case 'date':
    case 'date-time':
      return text(DATE_OR_DATE_TIME);
    case 'enum':
      return { type: 'string', enum: filter.values ?? [] };
    case 'integer-list':
      return {
        anyOf: [text(INTEGER_LIST, MAX_LIST_TEXT), { type: 'array', minItems: 1, maxItems: 100, items: text(INTEGER_LIST, MAX_LIST_TEXT) }],
      };
  }
}

export function listQuerySchema(resource: ResourceModel): object {
  const properties: Record<string, object> = {
    limit: text('^[0-9]+$'),
    offset: text('^[0-9]+$'),
    since_id: text('^[0-9]+$'),
    total: text(BOOLEAN),
    order: { type: 'string', minLength: 1, maxLength: MAX_TEXT },
    fields: { type: 'string', maxLength: MAX_LIST_TEXT },
    format: { type: 'string', enum: ['json', 'csv', 'ndjson'] },
    csv_formulas: { type: 'string', enum: ['escaped', 'raw'] },
    // A date-time or a token the gateway gave: which of the two, and whether it is valid, is checked at run time.
    changed_since: { type: 'string', minLength: 1, maxLength: 128 },
  };
  for (const filter of resource.filters) properties[filter.name] = filterValueSchema(filter);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:ops-data-gateway:${resource.path}:list-query`,
    $comment: banner(resource.file),
    type: 'object',
    additionalProperties: false,
    properties,
  };
}

export function detailQuerySchema(resource: ResourceModel): object {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:ops-data-gateway:${resource.path}:detail-query`,
    $comment: banner(resource.file),
    type: 'object',
    additionalProperties: false,
    properties: { fields: { type: 'string', maxLength: MAX_LIST_TEXT } },
  };
}
