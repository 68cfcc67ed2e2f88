/**
 * @module Everything the ORM does differently per imitated Odoo version, in one table, so that no
 * compiler, method or model tests a version number itself (the transports' own differences:
 * `http/version-traits.ts`). Each trait names one behaviour and says what Odoo does; per-model
 * differences stay with the model (`ModelDef.orderByVersion`, `nameSearch17`, and each field's
 * `declaredUntil`: its flags, selection values and labels where an earlier Odoo declares them otherwise).
 */
import { pyRepr } from './python';
import type { OdooVersion } from './types';

export interface OrmTraits {
  // ------------------------------------------------------------------ domains

  /**
   * Which parser reads a domain: 17/18 `normalize_domain` ("Domain … is syntactically not
   * correct."), 19's `Domain()` constructor ("Domain() malformed domain …", "Invalid operator in
   * condition (…)").
   */
  readonly domainParser: 'normalize_domain' | 'Domain';
  /** 17/18 `normalize_leaf` + `check_leaf` check each leaf's operator (19 checked operators when parsing). */
  readonly operatorCheckedPerLeaf: boolean;
  /** `ValueError` of a leaf on a field the model does not have ("… in leaf (…)", 19: "… in condition (…)"). */
  invalidFieldInLeafMessage(model: string, field: string, leaf: string): string;
  /**
   * A field Odoo cannot search (computed, no search method): 19 fails to convert it to SQL; 17/18
   * log "Non-stored field ... cannot be searched" and put an always-true leaf in its place, even
   * under a negation (pushed into the leaf first).
   */
  readonly unsearchableFieldRaises: boolean;
  /**
   * 19 turns `=`/`!=` into `in`/`not in` over a set (`== []` meaning "not set"), also before a
   * name search and before a model's `_search_display_name` (which gets `in` over a list, and
   * leaves `not in` to the ORM); 17/18 turn `in true` into `=` and `= [..]` into `in`.
   */
  readonly equalityAsSet: boolean;
  /**
   * How a negation is pushed into a leaf: 17/18 `distribute_not` (every comparison has an
   * inverse), 19 `Domain.__invert__` / `_negate` (no inverse for `=` and the like; inverting an
   * inequality adds "or not set" unless the field has a falsy value).
   */
  readonly negation: 'distribute_not' | 'invert';
  /**
   * Which code turns a column condition into SQL: 17/18 the leaf as written (17
   * `expression.__leaf_to_sql`, 18 `BaseModel._condition_to_sql`); 19 `Field._condition_to_sql`
   * after the domain optimizations (`=` is `in`, datetimes compared to whole seconds, date-only
   * values are local midnights).
   */
  readonly optimizedConditions: boolean;
  /**
   * NULL stands for the type's falsy value: 18 (`BaseModel._condition_to_sql`) treats NULL as 0
   * for numbers and '' for strings in equalities, adds NULL rows to numeric inequalities that 0
   * satisfies and makes `ilike ''` TRUE; 19 does the same through each field's `falsy_value`
   * (0, 0.0, ''), inequalities included. 17 (`expression.__leaf_to_sql`): NULL only matches
   * `= false`; negative operators with a truthy value and empty like patterns add `OR col IS NULL`.
   */
  readonly nullMatchesFalsy: boolean;
  /** `=?`: no condition when the value is not set (17/18: False/None only; 19: any falsy value). */
  readonly ifSetSkipsAnyFalsy: boolean;
  /** 17/18 wrap a negated `=?` in NOT around its positive leaf; 19 negates the leaf itself. */
  readonly ifSetNegatedAsNot: boolean;
  /**
   * A relational field compared to a string with `<`, `>`, `<=`, `>=`: 19 raises `TypeError`
   * ("Inequality not supported for relational field using a string"); 17/18 search `in` instead
   * ("special treatment to ill-formed domains").
   */
  readonly relationalInequalityRaises: boolean;
  /**
   * 17: a many2one compared to a string runs the comodel's own `_name_search`, where it departs
   * from the generic one (`ModelDef.nameSearch17`); 18/19 search the display name.
   */
  readonly comodelNameSearch: boolean;
  /**
   * A negated `child_of` / `parent_of` on a many2one: 17/18 wrap the hierarchy in NOT; 19 turned
   * it into `in` first, so `not in` keeps the rows without a value (NULL).
   */
  readonly many2oneNotInAddsNull: boolean;

  // ------------------------------------------------------------------ order

  /** `regex_order`: 17/18 also accept a field name in double quotes (`quoted`); 19 does not (`plain`). */
  readonly orderGrammar: 'quoted' | 'plain';
  /**
   * 17 refuses any `field.property` term ("Order a property (…) on a non-properties field (…)");
   * 18/19 accept `many2one.id`.
   */
  readonly orderByMany2oneId: boolean;
  /**
   * An order term on a field that cannot be sorted: 17 logs "cannot be sorted on field ... (not a
   * column)" and drops the term; 18/19 fail to convert it to SQL.
   */
  readonly unsortableOrderTermDropped: boolean;

  // ------------------------------------------------------------------ fields

  /** `display_name` is searchable: 17 has no search method on it; 18 added `_search_display_name`. */
  readonly displayNameSearchable: boolean;
  /** A related field sorts through its path in 18/19; in 17 only when it is inherited (`_inherits`). */
  readonly relatedFieldsSortable: boolean;
  /** `fields_get` reports `groupable` (18 and later). */
  readonly groupableAttribute: boolean;
  /** `fields_get`'s name of the aggregation: 17 still calls it `group_operator`. */
  readonly aggregatorAttribute: 'group_operator' | 'aggregator';

  // ------------------------------------------------------------------ read

  /** `ValueError` of a read asking for a missing field ("Invalid field 'x' on model 'y'", 19: "… on 'y'"); names as `repr`. */
  invalidReadFieldMessage(field: string, model: string): string;
  /** `read` on no records still checks the field names it is given (19; 17/18 return `[]` first). */
  readonly readChecksFieldsWithoutIds: boolean;
  /** A refused x2many comodel read is prefixed "Failed to read field <model>.<field>" (19). */
  readonly x2manyReadErrorNamesField: boolean;

  // ------------------------------------------------------------------ methods

  /** Second parameter of `name_search`: `args` in 17/18, `domain` in 19. */
  readonly nameSearchDomainParam: 'args' | 'domain';
  /** 17's `name_get` (removed in 18). */
  readonly hasNameGet: boolean;
  /** `has_access(operation)` on records (18 and later). */
  readonly hasHasAccess: boolean;
  /** `check_access(operation)` callable on records (18; 19 makes it `@api.private`). */
  readonly hasPublicCheckAccess: boolean;
  /** `check_access_rights(raise_exception=True)`: 17 returns True (or raises); 18/19 return None. */
  readonly checkAccessRightsReturnsNone: boolean;
  /**
   * 17: `@api.model has_group(group_ext_id)` on the calling user; 18/19: a singleton record method,
   * with `has_groups(group_spec)` beside it.
   */
  readonly hasGroupOnModel: boolean;
  /** Python class of `res.users`'s own methods in `TypeError` texts (`Users.has_group()`, 19: `ResUsers`). */
  readonly usersClass: 'Users' | 'ResUsers';
  /**
   * 17.0 asks whether the method exists before whether it is private (19 the other way round):
   * an unknown `_x` name is missing, not private, unless every model has it.
   */
  readonly existenceBeforePrivacy: boolean;
  /**
   * Public-looking names refused as private: `@api.private` names (17.0 (2025-04) and 19; 18.0
   * (2024-11) predates the decorator).
   */
  readonly privateMethods: ReadonlySet<string>;

  // ------------------------------------------------------------------ grouped reads

  /** `_field_to_sql` of a field without a column: 17 "Cannot convert field m.f to SQL"; 18/19 "… because it is not stored". */
  notStoredMessage(model: string, field: string): string;
  /** `regex_read_group_spec`: 19 accepts a dotted path (`partner_id.country_id`), 17/18 one property name. */
  readonly readGroupDottedPaths: boolean;
  /**
   * A dotted groupby on a field that is not a properties field: 17 "Property set on a non
   * properties field: 'x'", 18 "Property access on non-property field: 'f.x'", 19 "Only many2one
   * path is accepted for the 'f.x' groupby spec" (19 groups a many2one through its path).
   */
  groupbyPathMessage(path: string, spec: string): string;
  /** `READ_GROUP_NUMBER_GRANULARITY` (`date:year_number`, `date:day_of_week`...): 18 and later. */
  readonly numberGranularities: boolean;
  /** `READ_GROUP_AGGREGATE`'s functions (19 adds `array_agg_distinct`). */
  readonly aggregateFunctions: ReadonlySet<string>;
  /** 19's `field:sum_currency` (monetary sums converted to the company currency). */
  readonly sumCurrency: boolean;
  /** 19 groups by a many2many through a search of its comodel (read right, archived rows left out); 17/18 join every link. */
  readonly many2manyGroupSearchesComodel: boolean;
  /** One part of a `_read_group` order: 17/18 `regex_order`, 19 `regex_order_part_read_group` (dotted terms). */
  readonly readGroupOrderPart: RegExp;
  /**
   * 17/18 skip the query when the domain is false by its form (`expression.is_false`, before the
   * search); 19 when the search's query is empty (after it, so a bad domain still fails).
   */
  readonly readGroupSearchesEmptyDomain: boolean;
  /** The order `_read_group` builds (and so checks) the aggregates, the having clause and the order. */
  readonly readGroupStepOrder: readonly ('select' | 'having' | 'order')[];
  /** `read_group`'s `__domain`: 17/18 `expression.AND` of lists, 19 `Domain` objects listed. */
  readonly readGroupDomains: 'AND' | 'Domain';
  /** The domain of a many2many group without a value: 17/19 `not any []`, 18 `not in` the other groups' ids. */
  readonly emptyMany2manyGroupDomain: 'not any' | 'not in';
  /** `formatted_read_group` (the web module, 19). */
  readonly hasFormattedReadGroup: boolean;
  /** `_read_group_fill_results` hands the expand method the comodel's order, reversed for `<field> desc` (17). */
  readonly groupExpandGetsOrder: boolean;
  /** `read_group` parses the domain (`Domain(domain)`) before `_read_group` checks the read right (19). */
  readonly readGroupParsesDomainFirst: boolean;

  // ------------------------------------------------------------------ API keys

  /** Odoo 17 has no `expiration_date`; 18 and later refuse expired keys. */
  readonly apiKeyExpiry: boolean;
}

const INVALID_FIELD_IN_LEAF = (model: string, field: string, leaf: string) => `Invalid field ${model}.${field} in leaf ${leaf}`;
const INVALID_READ_FIELD = (field: string, model: string) => `Invalid field ${field} on model ${model}`;
const NOT_STORED = (model: string, field: string) => `Cannot convert ${model}.${field} to SQL because it is not stored`;
const AGGREGATES_17 = new Set(['sum', 'avg', 'max', 'min', 'bool_and', 'bool_or', 'array_agg', 'recordset', 'count', 'count_distinct']);
/** `regex_order` of 17/18 matched against one comma-separated part. */
const ORDER_PART_17 = /^\s*(?<term>(?:[a-z0-9_]+|"[a-z0-9_]+")(?:\.[a-z0-9_]+)?(?::[a-z_]+)?)(?:\s+(?<direction>desc|asc))?(?:\s+(?<nulls>nulls first|nulls last))?\s*$/i;
/** 19's `regex_order_part_read_group` (fullmatch). */
const ORDER_PART_19 = /^\s*(?<term>[a-z0-9_]+(?:\.[\p{L}\p{N}_.]+)?(?::[a-z_]+)?)(?:\s+(?<direction>desc|asc))?(?:\s+(?<nulls>nulls first|nulls last))?\s*$/iu;

const TRAITS: Readonly<Record<OdooVersion, OrmTraits>> = {
  17: {
    domainParser: 'normalize_domain',
    operatorCheckedPerLeaf: true,
    invalidFieldInLeafMessage: INVALID_FIELD_IN_LEAF,
    unsearchableFieldRaises: false,
    equalityAsSet: false,
    negation: 'distribute_not',
    optimizedConditions: false,
    nullMatchesFalsy: false,
    ifSetSkipsAnyFalsy: false,
    ifSetNegatedAsNot: true,
    relationalInequalityRaises: false,
    comodelNameSearch: true,
    many2oneNotInAddsNull: false,
    orderGrammar: 'quoted',
    orderByMany2oneId: false,
    unsortableOrderTermDropped: true,
    displayNameSearchable: false,
    relatedFieldsSortable: false,
    groupableAttribute: false,
    aggregatorAttribute: 'group_operator',
    invalidReadFieldMessage: INVALID_READ_FIELD,
    readChecksFieldsWithoutIds: false,
    x2manyReadErrorNamesField: false,
    nameSearchDomainParam: 'args',
    hasNameGet: true,
    hasHasAccess: false,
    hasPublicCheckAccess: false,
    checkAccessRightsReturnsNone: false,
    hasGroupOnModel: true,
    usersClass: 'Users',
    existenceBeforePrivacy: true,
    privateMethods: new Set(['init', 'with_context', 'with_user', 'with_env', 'with_company', 'with_prefetch', 'mapped', 'filtered', 'sorted', 'ensure_one', 'new']),
    notStoredMessage: (model, field) => `Cannot convert field ${model}.${field} to SQL`,
    readGroupDottedPaths: false,
    groupbyPathMessage: (path) => `Property set on a non properties field: ${pyRepr(path)}`,
    numberGranularities: false,
    aggregateFunctions: AGGREGATES_17,
    sumCurrency: false,
    many2manyGroupSearchesComodel: false,
    readGroupOrderPart: ORDER_PART_17,
    readGroupSearchesEmptyDomain: false,
    readGroupStepOrder: ['select', 'having', 'order'],
    readGroupDomains: 'AND',
    emptyMany2manyGroupDomain: 'not any',
    hasFormattedReadGroup: false,
    groupExpandGetsOrder: true,
    readGroupParsesDomainFirst: false,
    apiKeyExpiry: false,
  },
  18: {
    domainParser: 'normalize_domain',
    operatorCheckedPerLeaf: true,
    invalidFieldInLeafMessage: INVALID_FIELD_IN_LEAF,
    unsearchableFieldRaises: false,
    equalityAsSet: false,
    negation: 'distribute_not',
    optimizedConditions: false,
    nullMatchesFalsy: true,
    ifSetSkipsAnyFalsy: false,
    ifSetNegatedAsNot: true,
    relationalInequalityRaises: false,
    comodelNameSearch: false,
    many2oneNotInAddsNull: false,
    orderGrammar: 'quoted',
    orderByMany2oneId: true,
    unsortableOrderTermDropped: false,
    displayNameSearchable: true,
    relatedFieldsSortable: true,
    groupableAttribute: true,
    aggregatorAttribute: 'aggregator',
    invalidReadFieldMessage: INVALID_READ_FIELD,
    readChecksFieldsWithoutIds: false,
    x2manyReadErrorNamesField: false,
    nameSearchDomainParam: 'args',
    hasNameGet: false,
    hasHasAccess: true,
    hasPublicCheckAccess: true,
    checkAccessRightsReturnsNone: true,
    hasGroupOnModel: false,
    usersClass: 'Users',
    existenceBeforePrivacy: false,
    privateMethods: new Set(['init']),
    notStoredMessage: NOT_STORED,
    readGroupDottedPaths: false,
    groupbyPathMessage: (_path, spec) => `Property access on non-property field: ${pyRepr(spec)}`,
    numberGranularities: true,
    aggregateFunctions: AGGREGATES_17,
    sumCurrency: false,
    many2manyGroupSearchesComodel: false,
    readGroupOrderPart: ORDER_PART_17,
    readGroupSearchesEmptyDomain: false,
    readGroupStepOrder: ['having', 'order', 'select'],
    readGroupDomains: 'AND',
    emptyMany2manyGroupDomain: 'not in',
    hasFormattedReadGroup: false,
    groupExpandGetsOrder: false,
    readGroupParsesDomainFirst: false,
    apiKeyExpiry: true,
  },
  19: {
    domainParser: 'Domain',
    operatorCheckedPerLeaf: false,
    invalidFieldInLeafMessage: (model, field, leaf) => `Invalid field ${model}.${field} in condition ${leaf}`,
    unsearchableFieldRaises: true,
    equalityAsSet: true,
    negation: 'invert',
    optimizedConditions: true,
    nullMatchesFalsy: true,
    ifSetSkipsAnyFalsy: true,
    ifSetNegatedAsNot: false,
    relationalInequalityRaises: true,
    comodelNameSearch: false,
    many2oneNotInAddsNull: true,
    orderGrammar: 'plain',
    orderByMany2oneId: true,
    unsortableOrderTermDropped: false,
    displayNameSearchable: true,
    relatedFieldsSortable: true,
    groupableAttribute: true,
    aggregatorAttribute: 'aggregator',
    invalidReadFieldMessage: (field, model) => `Invalid field ${field} on ${model}`,
    readChecksFieldsWithoutIds: true,
    x2manyReadErrorNamesField: true,
    nameSearchDomainParam: 'domain',
    hasNameGet: false,
    hasHasAccess: true,
    hasPublicCheckAccess: false,
    checkAccessRightsReturnsNone: true,
    hasGroupOnModel: false,
    usersClass: 'ResUsers',
    existenceBeforePrivacy: false,
    privateMethods: new Set([
      'init',
      'browse',
      'exists',
      'sudo',
      'fetch',
      'search_fetch',
      'check_access',
      'with_context',
      'with_user',
      'with_env',
      'with_company',
      'with_prefetch',
      'mapped',
      'filtered',
      'sorted',
      'ensure_one',
      'new',
    ]),
    notStoredMessage: NOT_STORED,
    readGroupDottedPaths: true,
    groupbyPathMessage: (_path, spec) => `Only many2one path is accepted for the ${pyRepr(spec)} groupby spec`,
    numberGranularities: true,
    aggregateFunctions: new Set([...AGGREGATES_17, 'array_agg_distinct']),
    sumCurrency: true,
    many2manyGroupSearchesComodel: true,
    readGroupOrderPart: ORDER_PART_19,
    readGroupSearchesEmptyDomain: true,
    readGroupStepOrder: ['select', 'order', 'having'],
    readGroupDomains: 'Domain',
    emptyMany2manyGroupDomain: 'not any',
    hasFormattedReadGroup: true,
    groupExpandGetsOrder: false,
    readGroupParsesDomainFirst: true,
    apiKeyExpiry: true,
  },
};

export function ormTraits(version: OdooVersion): OrmTraits {
  return TRAITS[version];
}
