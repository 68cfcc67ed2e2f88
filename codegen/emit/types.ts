/**
 * @module `generated/types/<domain>.ts`: a TypeScript interface for every record. The generated
 * resource specs are typed by it (`RecordSpec<FleetVehiclesRecord>`), so the mapper gives records of
 * that type and code naming a field fails the type check once the catalogue renames it. (Query
 * parameters are typed for clients by the OpenAPI document; the runtime checks them with ajv.)
 */
import type { DomainModel, FieldModel, ResourceModel } from '../model/catalogue-model';
import { recordTypeName } from '../model/names';
import { printSourceFile } from './ts-printer';

function tsType(field: FieldModel): string {
  let type: string;
  if (field.type === 'array') type = `${field.items === 'integer' ? 'number' : 'string'}[]`;
  else if (field.enum) type = field.enum.map((v) => `'${v}'`).join(' | ');
  else type = field.type === 'integer' || field.type === 'number' ? 'number' : field.type;
  return field.nullable ? `${type} | null` : type;
}

const doc = (text: string) => `/** ${text.replace(/\*\//g, '*\\/')} */`;

function recordInterface(resource: ResourceModel): string {
  const members = resource.fields.map((f) => `  ${doc(`${f.description}${f.personal ? ' Personal data.' : ''}`)}\n  ${f.name}: ${tsType(f)};`);
  return `${doc(`A record of ${resource.path}: ${resource.description}`)}\nexport interface ${recordTypeName(resource.domain, resource.name)} {\n${members.join('\n')}\n}`;
}

export function emitDomainTypes(domain: DomainModel): string {
  return printSourceFile({ statements: domain.resources.map((r) => recordInterface(r)) }, domain.file);
}
