/**
 * @module JSON Schemas of the raw query strings of a resource's routes, as ajv validates them at run
 * time: every value is a string as it arrives (an array when a key is repeated). An unknown key fails
 * `additionalProperties` (400); any other failure is an unusable value (422). Ranges, calendar dates
 * and clamping are checked by the runtime after this shape check.
 */
import { banner } from '../banner';
import type { FilterModel, ResourceModel } from '../model/catalogue-model';
import { EXPORT_FORMAT_NAMES } from './export-formats';

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

/** What the list and export routes share: `fields`, `since_id`, `changed_since`, and the resource's filters. */
function listedProperties(resource: ResourceModel): Record<string, object> {
  const properties: Record<string, object> = {
    since_id: text('^[0-9]+$'),
    fields: { type: 'string', maxLength: MAX_LIST_TEXT },
    csv_formulas: { type: 'string', enum: ['escaped', 'raw'] },
    // A date-time or a token the gateway gave: which of the two, and whether it is valid, is checked at run time.
    changed_since: { type: 'string', minLength: 1, maxLength: 128 },
    // Relation names, each with its own field list in parentheses: read and checked at run time.
    expand: { type: 'string', minLength: 1, maxLength: MAX_LIST_TEXT },
  };
  for (const filter of resource.filters) properties[filter.name] = filterValueSchema(filter);
  return properties;
}

function querySchema(resource: ResourceModel, kind: string, properties: Record<string, object>): object {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:ops-data-gateway:${resource.path}:${kind}-query`,
    $comment: banner(resource.file),
    type: 'object',
    additionalProperties: false,
    properties,
  };
}

/**
 * The list route's query: paging, order and count besides what it shares with the export route. It
 * still takes `format` (an export asked on the list route, kept for compatibility) and `csv_formulas`.
 */
export function listQuerySchema(resource: ResourceModel): object {
  return querySchema(resource, 'list', {
    limit: text('^[0-9]+$'),
    offset: text('^[0-9]+$'),
    total: text(BOOLEAN),
    order: { type: 'string', minLength: 1, maxLength: MAX_TEXT },
    format: { type: 'string', enum: ['json', ...EXPORT_FORMAT_NAMES] },
    ...listedProperties(resource),
  });
}

/** The export route's query: a format, and what it shares with the list route (no paging, order or count). */
export function exportQuerySchema(resource: ResourceModel): object {
  return querySchema(resource, 'export', { format: { type: 'string', enum: EXPORT_FORMAT_NAMES }, ...listedProperties(resource) });
}

export function detailQuerySchema(resource: ResourceModel): object {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:ops-data-gateway:${resource.path}:detail-query`,
    $comment: banner(resource.file),
    type: 'object',
    additionalProperties: false,
    properties: { fields: { type: 'string', maxLength: MAX_LIST_TEXT }, expand: { type: 'string', minLength: 1, maxLength: MAX_LIST_TEXT } },
  };
}
