/**
 * @module `generated/types/<domain>.ts`: a TypeScript interface for every record and for every list
 * route's query parameters, for clients and for the tests.
 */
import type { DomainModel, FieldModel, FilterModel, ResourceModel } from '../model/catalogue-model';
import { queryTypeName, recordTypeName } from '../model/names';
import { printSourceFile } from './ts-printer';

function tsType(field: FieldModel): string {
  let type: string;
  if (field.type === 'array') type = `${field.items === 'integer' ? 'number' : 'string'}[]`;
  else if (field.enum) type = field.enum.map((v) => `'${v}'`).join(' | ');
  else type = field.type === 'integer' || field.type === 'number' ? 'number' : field.type;
  return field.nullable ? `${type} | null` : type;
}

function filterTsType(filter: FilterModel): string {
  switch (filter.type) {
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'enum':
      return (filter.values ?? []).map((v) => `'${v}'`).join(' | ');
    case 'integer-list':
      return 'number[]';
    default:
      return 'string';
  }
}

const doc = (text: string) => `/** ${text.replace(/\*\//g, '*\\/')} */`;

function recordInterface(resource: ResourceModel): string {
  const members = resource.fields.map(
    (f) => `  ${doc(`${f.description}${f.personal ? ' Personal data.' : ''}`)}\n  ${f.name}: ${tsType(f)};`,
  );
  return `${doc(`A record of ${resource.path}: ${resource.description}`)}\nexport interface ${recordTypeName(resource.domain, resource.name)} {\n${members.join('\n')}\n}`;
}

function queryInterface(resource: ResourceModel): string {
  const common = [
    '  /** Page size, 1 to 200 (larger values are lowered to 200); default 50. */\n  limit?: number;',
    '  /** Records to skip; default 0. */\n  offset?: number;',
    '  /** Cursor: records with a greater id, ascending; not with offset or order. */\n  since_id?: number;',
    '  /** false omits meta.total; default true. */\n  total?: boolean;',
    '  /** `field`, `field desc`, comma-separated keys. */\n  order?: string;',
    '  /** Comma-separated subset of fields. */\n  fields?: string;',
  ];
  const filters = resource.filters.map((f) => `  ${doc(f.description)}\n  ${f.name}?: ${filterTsType(f)};`);
  return `${doc(`Query parameters of GET /api/v1/${resource.path}.`)}\nexport interface ${queryTypeName(resource.domain, resource.name)} {\n${[...common, ...filters].join('\n')}\n}`;
}

export function emitDomainTypes(domain: DomainModel): string {
  return printSourceFile(
    { statements: domain.resources.flatMap((r) => [recordInterface(r), queryInterface(r)]) },
    domain.file,
  );
}
