/**
 * @module The public methods of the sandbox's models, with Odoo's signatures per version
 * (reference sections 7 and 8.1), and which names are private (`_x`, `@api.private`).
 */
import type { MethodSpec, OdooVersion, ParamSpec } from './types';
import { ormTraits, type OrmTraits } from './version-traits';

const req = (name: string): ParamSpec => ({ name, required: true });
const opt = (name: string): ParamSpec => ({ name, required: false });
const KWARGS = (name: string): ParamSpec => ({ name, required: false, variadicKeywords: true });
const ARGS = (name: string): ParamSpec => ({ name, required: false, variadicPositional: true });

const model = (name: string, ...params: ParamSpec[]): MethodSpec => ({ name, decorator: 'model', params });
const records = (name: string, ...params: ParamSpec[]): MethodSpec => ({ name, decorator: 'records', params });

/** Methods of every model (`BaseModel`), by version. */
function baseMethods(version: OdooVersion): MethodSpec[] {
  const traits = ormTraits(version);
  const methods = [
    model('search', req('domain'), opt('offset'), opt('limit'), opt('order')),
    model('search_read', opt('domain'), opt('fields'), opt('offset'), opt('limit'), opt('order'), KWARGS('read_kwargs')),
    model('search_count', req('domain'), opt('limit')),
    // Module web's, on every model of an Odoo with the web client (every one): 17 and later take a specification.
    model('web_search_read', req('domain'), req('specification'), opt('offset'), opt('limit'), opt('order'), opt('count_limit')),
    records('read', opt('fields'), opt('load')),
    model('fields_get', opt('allfields'), opt('attributes')),
    model('read_group', req('domain'), req('fields'), req('groupby'), opt('offset'), opt('limit'), opt('orderby'), opt('lazy')),
    model('name_search', opt('name'), opt(traits.nameSearchDomainParam), opt('operator'), opt('limit')),
    model('check_access_rights', req('operation'), opt('raise_exception')),
    model('create', req('vals_list')),
    records('write', req('vals')),
    records('unlink'),
    records('copy', opt('default')),
    records('toggle_active'),
    records('action_archive'),
    records('action_unarchive'),
  ];
  if (traits.hasNameGet) methods.push(records('name_get'));
  if (traits.hasFormattedReadGroup) {
    methods.push(model('formatted_read_group', req('domain'), opt('groupby'), opt('aggregates'), opt('having'), opt('offset'), opt('limit'), opt('order')));
  }
  if (traits.hasHasAccess) methods.push(records('has_access', req('operation')));
  if (traits.hasPublicCheckAccess) methods.push(records('check_access', req('operation')));
  return methods;
}

/** Methods `res.users` adds. */
function userMethods(version: OdooVersion): MethodSpec[] {
  const methods = [model('context_get')];
  if (ormTraits(version).hasGroupOnModel) methods.push(model('has_group', req('group_ext_id')));
  else methods.push(records('has_group', req('group_ext_id')), records('has_groups', req('group_spec')));
  return methods;
}

/** Any other `action_*` name: a business action, callable on records, refused at the rights level. */
const ACTION = (name: string): MethodSpec => records(name, ARGS('args'), KWARGS('kwargs'));

/** Underscore methods every Odoo model has (a sample of BaseModel's): refused as private, not missing. */
const ORM_PRIVATE_METHODS: ReadonlySet<string> = new Set([
  '_search',
  '_read_group',
  '_name_search',
  '_compute_display_name',
  '_check_company',
  '_read',
  '_fetch_field',
  '_flush',
  '_where_calc',
  '_apply_ir_rules',
  '_order_to_sql',
  '_field_to_sql',
  '_auto_init',
  '_table_query',
]);

/** Python class that defines the method, for `TypeError` texts (`BaseModel.search_count()`). */
export function methodOwner(version: OdooVersion, modelName: string, method: string): string {
  const users = modelName === 'res.users' && userMethods(version).some((m) => m.name === method);
  if (users) return ormTraits(version).usersClass;
  return 'BaseModel';
}

export class MethodTable {
  private readonly base: ReadonlyMap<string, MethodSpec>;
  private readonly users: ReadonlyMap<string, MethodSpec>;
  private readonly traits: OrmTraits;

  constructor(version: OdooVersion) {
    this.traits = ormTraits(version);
    this.base = new Map(baseMethods(version).map((m) => [m.name, m]));
    this.users = new Map(userMethods(version).map((m) => [m.name, m]));
  }

  lookup(modelName: string, method: string): MethodSpec | 'private' | undefined {
    if (this.traits.existenceBeforePrivacy && method.startsWith('_') && !ORM_PRIVATE_METHODS.has(method)) return undefined;
    if (method.startsWith('_') || this.traits.privateMethods.has(method)) return 'private';
    const spec = (modelName === 'res.users' ? this.users.get(method) : undefined) ?? this.base.get(method);
    if (spec) return spec;
    if (/^action_\w+$/.test(method)) return ACTION(method);
    return undefined;
  }
}
