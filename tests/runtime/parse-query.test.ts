/** The query string of a list or detail route becomes a typed query, or the error of decisions D11–D20. */
import Ajv2020 from 'ajv/dist/2020';
import { GatewayError } from '@ops-data-gateway/gateway/runtime/errors';
import { QueryParser } from '@ops-data-gateway/gateway/runtime/query/parse-query';
import { compileDomain } from '@ops-data-gateway/gateway/runtime/query/domain';
import { FLEET_RESERVATIONS, FLEET_VEHICLES } from '@ops-data-gateway/gateway/generated/resources/fleet';
import { IT_TICKETS } from '@ops-data-gateway/gateway/generated/resources/it';
import { EVENTS_REGISTRATIONS } from '@ops-data-gateway/gateway/generated/resources/events';

const ajv = new Ajv2020({ strict: true, verbose: true });
const vehicles = new QueryParser(FLEET_VEHICLES, ajv);
const tickets = new QueryParser(IT_TICKETS, ajv);
const reservations = new QueryParser(FLEET_RESERVATIONS, ajv);
const registrations = new QueryParser(EVENTS_REGISTRATIONS, ajv);

function failure(run: () => unknown): [number, string, string] {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return [error.status, error.code, error.message];
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe(QueryParser.name, () => {
  it('applies the defaults: limit 50, offset 0, total, default order with id last, every field', () => {
    const query = vehicles.parseList({});
    expect(query).toMatchObject({ limit: 50, offset: 0, total: true, order: 'license_plate asc, id asc', filters: [] });
    expect(query.fields).toBe(FLEET_VEHICLES.fields);
  });

  it.each([
    ['limit above 200 is lowered silently', { limit: '1000' }, { limit: 200 }],
    ['limit as sent', { limit: '7' }, { limit: 7 }],
    ['total=false (any case)', { total: 'FALSE' }, { total: false }],
    ['order on an exposed field, id appended', { order: 'plate desc' }, { order: 'license_plate desc, id asc' }],
    [
      'order with several keys and a capitalised direction; a number key with its nulls clause',
      { order: 'seats DESC, plate' },
      { order: 'seats desc nulls last, license_plate asc, id asc' },
    ],
    ['a number key ascending puts its unset values (read as 0) first', { order: 'seats' }, { order: 'seats asc nulls first, id asc' }],
    ['order naming id keeps it last as given', { order: 'id desc' }, { order: 'id desc' }],
    ['since_id orders by ascending id', { since_id: '10' }, { sinceId: 10, order: 'id asc' }],
  ])('%s', (_name, raw, expected) => {
    expect(vehicles.parseList(raw)).toMatchObject(expected);
  });

  it.each([
    ['an unknown parameter', { colour: 'red' }, 400, 'bad_request'],
    ['a raw domain attempt', { domain: "[('id','>',0)]" }, 400, 'bad_request'],
    ['since_id with offset (D11)', { since_id: '1', offset: '5' }, 400, 'bad_request'],
    ['since_id with order (D11)', { since_id: '1', order: 'plate' }, 400, 'bad_request'],
    ['order on an unknown field', { order: 'colour' }, 400, 'bad_request'],
    ['order on a field derived from a relation', { order: 'driver' }, 400, 'bad_request'],
    ['order on a computed field', { order: 'odometer' }, 400, 'bad_request'],
    ['order with a bad direction', { order: 'plate sideways' }, 400, 'bad_request'],
    ['order longer than the schema allows', { order: `plate,${'plate,'.repeat(200)}plate` }, 400, 'bad_request'],
    ['order given twice', { order: ['plate', 'plate desc'] }, 400, 'bad_request'],
    ['order with a nulls clause of its own (not part of the API)', { order: 'plate asc nulls first' }, 400, 'bad_request'],
    ['fields naming an unknown field (D12)', { fields: 'plate,colour' }, 400, 'bad_request'],
    ['fields empty (D12)', { fields: '' }, 400, 'bad_request'],
    ['limit=0 (D13)', { limit: '0' }, 422, 'invalid_value'],
    ['limit=abc (D13)', { limit: 'abc' }, 422, 'invalid_value'],
    ['offset=-1 (D13)', { offset: '-1' }, 422, 'invalid_value'],
    ['offset beyond 32 bits', { offset: '99999999999' }, 422, 'invalid_value'],
    ['since_id=x (D13)', { since_id: 'x' }, 422, 'invalid_value'],
    ['total=maybe (D13)', { total: 'maybe' }, 422, 'invalid_value'],
    ['an integer filter given text', { driver_id: 'abc' }, 422, 'invalid_value'],
    ['a malformed date', { insurance_expiry_before: '2026-13-01' }, 422, 'invalid_value'],
    ['a date that does not exist', { insurance_expiry_before: '2026-02-30' }, 422, 'invalid_value'],
    ['an empty value (D18)', { fuel_type: '' }, 422, 'invalid_value'],
    ['a repeated single-value key (D18)', { driver_id: ['1', '2'] }, 422, 'invalid_value'],
    ['a boolean other than true/false (D16)', { is_closed: 'yes' }, 422, 'invalid_value', tickets],
    ['an in-list with a non-positive id (D20)', { assignee_id: '3,0' }, 422, 'invalid_value', tickets],
  ])('refuses %s', (_name, raw, status, code, parser = vehicles) => {
    expect(failure(() => parser.parseList(raw)).slice(0, 2)).toEqual([status, code]);
  });

  it('lists the allowed values of an enum filter given another value (D19)', () => {
    const [status, , message] = failure(() => vehicles.parseList({ fuel_type: 'steam' }));
    expect(status).toBe(422);
    expect(message).toContain('diesel, gasoline, full_hybrid');
  });

  it('names the unknown field of fields=', () => {
    expect(failure(() => vehicles.parseList({ fields: 'plate,colour' }))[2]).toContain("'colour'");
  });

  it('accepts an in-list comma-separated and repeated, deduplicated (D20)', () => {
    const comma = tickets.parseList({ assignee_id: '3,5' });
    const repeated = tickets.parseList({ assignee_id: ['3', '5', '3'] });
    expect(comma.filters[0]?.value).toEqual([3, 5]);
    expect(repeated.filters[0]?.value).toEqual([3, 5]);
  });

  it('returns id with any fields subset', () => {
    expect(vehicles.parseList({ fields: 'plate' }).fields.map((f) => f.name)).toEqual(['id', 'plate']);
  });

  it('escapes % and _ in ilike text so that they match literally (D17)', () => {
    const query = vehicles.parseList({ plate: '50%_off\\' });
    expect(query.filters[0]?.value).toBe('50\\%\\_off\\\\');
  });

  // A bound holds on the value the client sees: the ERP keeps fractions of a second it answers cut
  // to the second, so "through t" is sent as "< the next second" (or the next day), "from t" as ">= t"
  // rounded up to a whole second.
  it.each([
    ['a date-only after on a datetime field covers the day from 00:00:00Z', { start_after: '2026-03-01' }, ['>=', '2026-03-01 00:00:00']],
    ['a date-only before on a datetime field covers the whole day, its last fraction of a second included', { start_before: '2026-03-01' }, ['<', '2026-03-02 00:00:00']],
    ['a date-time with an offset is converted to UTC', { start_after: '2026-03-01T10:30:00+02:00' }, ['>=', '2026-03-01 08:30:00']],
    ['a date-time before includes every fraction of its second', { start_before: '2026-03-01T10:30:15Z' }, ['<', '2026-03-01 10:30:16']],
    ['a before with a fraction includes the records shown at its second', { start_before: '2026-03-01T10:30:15.5Z' }, ['<', '2026-03-01 10:30:16']],
    ['an after with a fraction starts at the next second (a record shown at 10:30:15 is before it)', { start_after: '2026-03-01T10:30:15.5Z' }, ['>=', '2026-03-01 10:30:16']],
    ['an after with a zero fraction is its second', { start_after: '2026-03-01T10:30:15.000Z' }, ['>=', '2026-03-01 10:30:15']],
    ['a before on the last day of a year goes on to the next year', { start_before: '2026-12-31T23:59:59Z' }, ['<', '2027-01-01 00:00:00']],
    ['a before past the last datetime the ERP holds covers every set value', { start_before: '9999-12-31' }, ['>=', '0001-01-01 00:00:00']],
    ['an after past the last datetime the ERP holds matches nothing', { start_after: '9999-12-31T23:59:59.5Z' }, ['<', '0001-01-01 00:00:00']],
    ['a year before 100 is that year', { start_after: '0050-06-01' }, ['>=', '0050-06-01 00:00:00']],
  ])('%s (D15)', (_name, raw, leaf) => {
    const query = reservations.parseList(raw);
    const name = Object.keys(raw)[0] as string;
    expect(compileDomain(FLEET_RESERVATIONS, query.filters).at(-1)).toEqual([FLEET_RESERVATIONS.filters.find((f) => f.name === name)?.erp, ...leaf]);
  });

  it('compiles scope, filters and cursor into one AND domain', () => {
    const query = registrations.parseList({ state: 'open', email: 'a_b', since_id: '5' });
    expect(compileDomain(EVENTS_REGISTRATIONS, query.filters, query.sinceId)).toEqual([
      ['state', '=', 'open'],
      ['email', 'ilike', 'a\\_b'],
      ['id', '>', 5],
    ]);
    expect(compileDomain(FLEET_VEHICLES, [], undefined)).toEqual([['active', '=', true]]);
  });

  it('accepts only fields on the detail route', () => {
    expect(vehicles.parseDetail({ fields: 'plate' }).fields.map((f) => f.name)).toEqual(['id', 'plate']);
    expect(failure(() => vehicles.parseDetail({ limit: '5' })).slice(0, 2)).toEqual([400, 'bad_request']);
  });
});
