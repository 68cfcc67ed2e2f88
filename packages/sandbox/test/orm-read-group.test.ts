/**
 * Grouped reads through `Orm.call`: `read_group` in 17, 18 and 19 and 19's `formatted_read_group`.
 * The oracles are plain SQL over the store (counts, sums, groups) and, for labels, week numbers and
 * time zones, the values Odoo's own code gives (babel 2.10 `en_US`, `date_utils.weeknumber`, pytz
 * `localize`; computed once with the 19.0 sources and written here).
 */
import { ADMIN_UID, NO_FLEET_UID, createSandboxSet, type Sandbox, type SandboxSet } from './orm-fixture';
import { bucketLabel, parseNaive, weekNumber } from '../src/orm/group-labels';
import type { OdooVersion } from '../src/orm/types';

let set: SandboxSet;
const boxes = {} as Record<OdooVersion, Sandbox>;
const V = [17, 18, 19] as const;

// Services 1-9 carry the dates of the edge cases (every other service is left out by the domain).
const EDGE_DATES = ['2020-12-26', '2021-01-01', '2021-01-03', '2024-12-29', '2024-12-31', '2025-01-01', '2025-03-30', '2026-12-31', '2027-01-02'];
const EDGE = [['id', '<=', 9]];

beforeAll(() => {
  set = createSandboxSet((sql) => {
    for (const [i, date] of EDGE_DATES.entries()) sql(`UPDATE fleet_vehicle_log_services SET date = ?, amount = ?, state = 'done' WHERE id = ?`, date, 100 * (i + 1), i + 1);
    sql(`UPDATE fleet_vehicle_log_services SET amount = NULL WHERE id IN (1, 2)`);
    sql(`UPDATE fleet_vehicle_log_services SET date = NULL WHERE id = 10`);
    // Orders 1-3: one instant on each side of Brussels' spring-forward night (UTC).
    sql(`UPDATE purchase_order SET date_order = '2025-03-29 22:30:00' WHERE id = 1`);
    sql(`UPDATE purchase_order SET date_order = '2025-03-30 00:30:00' WHERE id = 2`);
    sql(`UPDATE purchase_order SET date_order = '2025-03-30 22:30:00' WHERE id = 3`);
    sql(`UPDATE purchase_order SET amount_total = NULL WHERE state = 'cancel'`);
  });
  for (const version of V) boxes[version] = set.open(version);
});
afterAll(() => set.cleanup());

type Group = Record<string, unknown>;

function readGroup(version: OdooVersion, model: string, named: Record<string, unknown>, context: Record<string, unknown> = {}, uid = ADMIN_UID): Group[] {
  return boxes[version].call(model, 'read_group', [], named, { context, uid }) as Group[];
}

function formatted(model: string, named: Record<string, unknown>, context: Record<string, unknown> = {}): Group[] {
  return boxes[19].call(model, 'formatted_read_group', [], named, { context }) as Group[];
}

describe('read_group answers', () => {
  for (const version of V) {
    test(`${version} by a selection: one group per value, <field>_count, the default aggregator, __domain, in value order`, () => {
      const groups = readGroup(version, 'purchase.order', { domain: [], fields: ['amount_total'], groupby: ['state'] });
      const oracle = boxes[version].sql<{ state: string; n: number; total: number | null }>(
        `SELECT state, COUNT(*) AS n, SUM(amount_total) AS total FROM purchase_order GROUP BY state ORDER BY state`,
      );
      expect(groups.map((g) => Object.keys(g))).toEqual(oracle.map(() => ['state', 'state_count', 'amount_total', '__domain']));
      expect(groups.map((g) => [g['state'], g['state_count'], g['__domain']])).toEqual(oracle.map((o) => [o.state, o.n, [['state', '=', o.state]]]));
      for (const [i, o] of oracle.entries()) {
        // A group whose numbers are all NULL sums to false (the cancelled orders).
        if (o.total === null) expect(groups[i]!['amount_total']).toBe(false);
        else expect(groups[i]!['amount_total']).toBeCloseTo(o.total, 6);
      }
    });

    test(`${version} a many2one as [id, display name], in its comodel's order, the empty group last as false`, () => {
      const groups = readGroup(version, 'purchase.order', { domain: [], fields: [], groupby: ['department_id'], lazy: false });
      const oracle = boxes[version].sql<{ id: number | null; name: string | null; n: number }>(
        `SELECT d.id, d.name, COUNT(*) AS n FROM purchase_order o LEFT JOIN hr_department d ON d.id = o.department_id GROUP BY d.id ORDER BY d.id IS NULL, d.id`,
      );
      expect(groups.map((g) => g['__count'])).toEqual(expect.arrayContaining(oracle.map((o) => o.n)));
      const last = groups[groups.length - 1]!;
      expect(last).toEqual({ department_id: false, __count: oracle.find((o) => o.id === null)!.n, __domain: [['department_id', '=', false]] });
      for (const g of groups.slice(0, -1)) expect(g['department_id']).toEqual([expect.any(Number), expect.any(String)]);
    });

    test(`${version} aggregates: name:agg(field), NULLs skipped by avg and count, count_distinct, min and max`, () => {
      const [all] = readGroup(version, 'purchase.order', {
        domain: [],
        fields: ['avg_total:avg(amount_total)', 'n:count(amount_total)', 'partners:count_distinct(partner_id)', 'first:min(date_order)', 'last:max(date_order)'],
        groupby: [],
      });
      const o = boxes[version].sql<Record<string, number | string>>(
        `SELECT COUNT(*) AS n_all, AVG(amount_total) AS avg, COUNT(amount_total) AS n, COUNT(DISTINCT partner_id) AS partners, MIN(date_order) AS first, MAX(date_order) AS last FROM purchase_order`,
      )[0]!;
      // No groupby: one group of everything; 19 lists the empty domain as the true leaf.
      expect(all).toMatchObject({ __count: o['n_all'], n: o['n'], partners: o['partners'], first: o['first'], last: o['last'] });
      expect(all!['__domain']).toEqual(version === 19 ? [[1, '=', 1]] : []);
      expect(all!['avg_total']).toBeCloseTo(o['avg'] as number, 6);
    });

    test(`${version} lazy keeps the first groupby and hands the rest in __context; eager groups by all`, () => {
      const lazy = readGroup(version, 'purchase.order', { domain: [], fields: [], groupby: ['priority', 'state'] });
      expect(lazy[0]).toEqual({ priority: expect.any(String), priority_count: expect.any(Number), __domain: expect.any(Array), __context: { group_by: ['state'] } });
      const eager = readGroup(version, 'purchase.order', { domain: [], fields: [], groupby: ['priority', 'state'], lazy: false });
      const pairs = boxes[version].sql<{ n: number }>(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM purchase_order GROUP BY priority, state)`)[0]!.n;
      expect(eager).toHaveLength(pairs);
      expect(eager[0]).toEqual({ priority: expect.any(String), state: expect.any(String), __count: expect.any(Number), __domain: ['&', expect.any(Array), expect.any(Array)] });
    });

    test(`${version} order by an aggregate puts NULL sums first when descending, limit and offset page the groups`, () => {
      const groups = readGroup(version, 'purchase.order', { domain: [], fields: ['amount_total'], groupby: ['state'], orderby: 'amount_total desc' });
      expect(groups[0]).toMatchObject({ state: 'cancel', amount_total: false });
      const sums = groups.slice(1).map((g) => g['amount_total'] as number);
      expect(sums).toEqual([...sums].sort((a, b) => b - a));
      const page = readGroup(version, 'purchase.order', { domain: [], fields: ['amount_total'], groupby: ['state'], orderby: 'amount_total desc', limit: 2, offset: 1 });
      expect(page).toEqual(groups.slice(1, 3));
    });

    test(`${version} date buckets: labels, [from, to) ranges and __domain, weeks from Sunday numbered from 1 January`, () => {
      const weeks = readGroup(version, 'fleet.vehicle.log.services', { domain: EDGE, fields: ['amount'], groupby: ['date:week'] });
      expect(weeks.map((g) => [g['date:week'], (g['__range'] as Record<string, unknown>)['date:week'], g['date_count'], g['amount']])).toEqual([
        ['W52 2020', { from: '2020-12-20', to: '2020-12-27' }, 1, false],
        ['W1 2021', { from: '2020-12-27', to: '2021-01-03' }, 1, false],
        ['W2 2021', { from: '2021-01-03', to: '2021-01-10' }, 1, 300],
        ['W1 2025', { from: '2024-12-29', to: '2025-01-05' }, 3, 1500],
        ['W14 2025', { from: '2025-03-30', to: '2025-04-06' }, 1, 700],
        ['W1 2027', { from: '2026-12-27', to: '2027-01-03' }, 2, 1700],
      ]);
      // 17/18 AND the lists (the range's '&' stays nested), 19 flattens the Domain.
      const range = [
        ['date', '>=', '2024-12-29'],
        ['date', '<', '2025-01-05'],
      ];
      expect(weeks[3]!['__domain']).toEqual(version === 19 ? ['&', '&', ['id', '<=', 9], ...range] : ['&', ['id', '<=', 9], '&', ...range]);
      const labels = (granularity: string) =>
        readGroup(version, 'fleet.vehicle.log.services', { domain: EDGE, fields: [], groupby: [`date:${granularity}`] }).map((g) => g[`date:${granularity}`]);
      expect(labels('day').slice(0, 3)).toEqual(['26 Dec 2020', '01 Jan 2021', '03 Jan 2021']);
      expect(labels('month')).toEqual(['December 2020', 'January 2021', 'December 2024', 'January 2025', 'March 2025', 'December 2026', 'January 2027']);
      expect(labels('quarter')).toEqual(['Q4 2020', 'Q1 2021', 'Q4 2024', 'Q1 2025', 'Q4 2026', 'Q1 2027']);
      expect(labels('year')).toEqual(['2020', '2021', '2024', '2025', '2026', '2027']);
      // A plain date groupby is by month; the group without a date has no range.
      const months = readGroup(version, 'fleet.vehicle.log.services', { domain: [['id', 'in', [1, 10]]], fields: [], groupby: ['date'] });
      const december = [
        ['date', '>=', '2020-12-01'],
        ['date', '<', '2021-01-01'],
      ];
      expect(months).toEqual([
        {
          date: 'December 2020',
          date_count: 1,
          __range: { date: { from: '2020-12-01', to: '2021-01-01' } },
          __domain: version === 19 ? ['&', '&', ['id', 'in', [1, 10]], ...december] : ['&', ['id', 'in', [1, 10]], '&', ...december],
        },
        { date: false, date_count: 1, __range: { date: false }, __domain: ['&', ['id', 'in', [1, 10]], ['date', '=', false]] },
      ]);
    });

    test(`${version} datetime buckets in the context's time zone (pytz localize across DST), UTC without one`, () => {
      const days = (context: Record<string, unknown>) =>
        readGroup(version, 'purchase.order', { domain: [['id', 'in', [1, 2, 3]]], fields: [], groupby: ['date_order:day'] }, context).map((g) => [
          g['date_order:day'],
          (g['__range'] as Record<string, unknown>)['date_order:day'],
          g['date_order_count'],
        ]);
      expect(days({})).toEqual([
        ['29 Mar 2025', { from: '2025-03-29 00:00:00', to: '2025-03-30 00:00:00' }, 1],
        ['30 Mar 2025', { from: '2025-03-30 00:00:00', to: '2025-03-31 00:00:00' }, 2],
      ]);
      // Brussels (UTC+1, then UTC+2 from 02:00 on the 30th, a day of 23 hours): 00:30 UTC on the
      // 30th is 01:30 there, 22:30 UTC on the 30th is already the 31st.
      expect(days({ tz: 'Europe/Brussels' })).toEqual([
        ['29 Mar 2025', { from: '2025-03-28 23:00:00', to: '2025-03-29 23:00:00' }, 1],
        ['30 Mar 2025', { from: '2025-03-29 23:00:00', to: '2025-03-30 22:00:00' }, 1],
        ['31 Mar 2025', { from: '2025-03-30 22:00:00', to: '2025-03-31 22:00:00' }, 1],
      ]);
      // The user's own zone is never used; an unknown zone counts as none.
      expect(days({ tz: 'Not/AZone' })).toEqual(days({}));
      const hours = readGroup(version, 'purchase.order', { domain: [['id', '=', 2]], fields: [], groupby: ['date_order:hour'] }, { tz: 'America/New_York' });
      expect(hours.map((g) => [g['date_order:hour'], g['__range']])).toEqual([['08:00 29 Mar', { 'date_order:hour': { from: '2025-03-30 00:00:00', to: '2025-03-30 01:00:00' } }]]);
    });

    test(`${version} a field's group_expand adds its empty groups in lazy mode only`, () => {
      const lazy = readGroup(version, 'fleet.vehicle.log.services', { domain: [['id', '=', 1]], fields: ['amount'], groupby: ['state'] });
      expect(lazy).toEqual([
        { state_count: 0, amount: false, state: 'new', __domain: ['&', ['id', '=', 1], ['state', '=', 'new']] },
        { state_count: 0, amount: false, state: 'running', __domain: ['&', ['id', '=', 1], ['state', '=', 'running']] },
        { state: 'done', state_count: 1, amount: false, __domain: ['&', ['id', '=', 1], ['state', '=', 'done']] },
        { state_count: 0, amount: false, state: 'cancelled', __domain: ['&', ['id', '=', 1], ['state', '=', 'cancelled']] },
      ]);
      expect(readGroup(version, 'fleet.vehicle.log.services', { domain: [['id', '=', 1]], fields: [], groupby: ['state'], lazy: false })).toHaveLength(1);
      const stages = boxes[version].sql<{ n: number }>('SELECT COUNT(*) AS n FROM fleet_vehicle_state')[0]!.n;
      const states = readGroup(version, 'fleet.vehicle', { domain: [['id', 'in', []]], fields: [], groupby: ['state_id'] });
      expect(states).toHaveLength(stages);
      // 19's vehicle states fold (`fleet.vehicle.state.fold`, absent before 19).
      expect(states.every((g) => '__fold' in g === (version === 19))).toBe(true);
    });
  }

  test('__domain: 17/18 AND the caller domain as given (normalized), 19 lists it as a Domain (negations pushed in)', () => {
    const domain = ['!', ['state', '=', 'cancel']];
    const first = (version: OdooVersion) => readGroup(version, 'purchase.order', { domain, fields: [], groupby: ['priority'] })[0]!['__domain'];
    expect(first(17)).toEqual(['&', '!', ['state', '=', 'cancel'], ['priority', '=', '0']]);
    expect(first(18)).toEqual(first(17));
    expect(first(19)).toEqual(['&', ['state', '!=', 'cancel'], ['priority', '=', '0']]);
    expect(readGroup(17, 'purchase.order', { domain: [], fields: [], groupby: [] })[0]!['__domain']).toEqual([]);
    expect(readGroup(19, 'purchase.order', { domain: [], fields: [], groupby: [] })[0]!['__domain']).toEqual([[1, '=', 1]]);
  });

  test('number granularities (18 and later): ISO weeks, Sunday = 0, as numbers', () => {
    const part = (version: OdooVersion, granularity: string) =>
      readGroup(version, 'fleet.vehicle.log.services', { domain: [['id', 'in', [4, 6]]], fields: [], groupby: [`date:${granularity}`] }).map((g) => g[`date:${granularity}`]);
    expect(part(18, 'iso_week_number')).toEqual([1, 52]);
    expect(part(19, 'day_of_week')).toEqual([0, 3]);
    expect(part(19, 'quarter_number')).toEqual([1, 4]);
    expect(boxes[17].error('fleet.vehicle.log.services', 'read_group', [], { domain: [], fields: [], groupby: ['date:iso_week_number'] }).message).toBe(
      "Granularity specification isn't correct: 'iso_week_number'",
    );
  });
});

describe('labels (babel en_US through Odoo 19 code)', () => {
  test.each([
    // [day, the Sunday starting its week, the week's label]
    ['2019-12-31', '2019-12-29', 'W1 2020'],
    ['2020-12-26', '2020-12-20', 'W52 2020'],
    ['2021-01-01', '2020-12-27', 'W1 2021'],
    ['2022-01-01', '2021-12-26', 'W1 2022'],
    ['2023-01-01', '2023-01-01', 'W1 2023'],
    ['2023-12-31', '2023-12-31', 'W1 2024'],
    ['2027-12-31', '2027-12-26', 'W1 2028'],
    ['2028-12-30', '2028-12-24', 'W53 2028'],
    ['2030-06-15', '2030-06-09', 'W24 2030'],
  ])('the week of %s starts on %s: %s', (_day, sunday, label) => {
    expect(bucketLabel(parseNaive(sunday), 'week')).toBe(label);
    const [year, week] = weekNumber(parseNaive(sunday));
    expect(`W${week} ${year}`).toBe(label);
  });

  test('hours on a 12-hour clock without AM/PM, days, months, quarters', () => {
    const at = (h: number) => bucketLabel({ y: 2024, mo: 3, d: 5, h, mi: 0, s: 0 }, 'hour');
    expect([0, 1, 11, 12, 13, 23].map(at)).toEqual(['12:00 05 Mar', '01:00 05 Mar', '11:00 05 Mar', '12:00 05 Mar', '01:00 05 Mar', '11:00 05 Mar']);
    expect(bucketLabel(parseNaive('2026-09-07'), 'day')).toBe('07 Sep 2026');
    expect(bucketLabel(parseNaive('2026-09-01'), 'month')).toBe('September 2026');
    expect(bucketLabel(parseNaive('2026-07-01'), 'quarter')).toBe('Q3 2026');
  });
});

describe('formatted_read_group (19)', () => {
  test('each groupby and aggregate under its own spec, [from, label] for a date bucket, __extra_domain', () => {
    const groups = formatted('fleet.vehicle.log.services', { domain: EDGE, groupby: ['date:quarter', 'state'], aggregates: ['__count', 'amount:sum', 'amount:max'] });
    expect(groups[0]).toEqual({
      'date:quarter': ['2020-10-01', 'Q4 2020'],
      state: 'done',
      __extra_domain: ['&', '&', ['date', '>=', '2020-10-01'], ['date', '<', '2021-01-01'], ['state', '=', 'done']],
      __count: 1,
      'amount:sum': false,
      'amount:max': false,
    });
    expect(formatted('purchase.order', { domain: [], groupby: [], aggregates: ['__count'] })).toEqual([
      { __extra_domain: [[1, '=', 1]], __count: boxes[19].sql<{ n: number }>('SELECT COUNT(*) AS n FROM purchase_order')[0]!.n },
    ]);
  });

  test('a many2one path groups by the comodel field; having filters the groups; empty groups expand on request', () => {
    const byCountry = formatted('purchase.order', { domain: [], groupby: ['partner_id.country_id'], aggregates: ['__count'] });
    const oracle = boxes[19].sql<{ country: number | null; n: number }>(
      'SELECT p.country_id AS country, COUNT(*) AS n FROM purchase_order o JOIN res_partner p ON p.id = o.partner_id GROUP BY p.country_id ORDER BY p.country_id IS NULL, p.country_id',
    );
    expect(byCountry.map((g) => [Array.isArray(g['partner_id.country_id']) ? (g['partner_id.country_id'] as unknown[])[0] : false, g['__count']])).toEqual(
      oracle.map((o) => [o.country ?? false, o.n]),
    );
    expect(byCountry[0]!['__extra_domain']).toEqual([['partner_id', 'any', [['country_id', '=', oracle[0]!.country]]]]);
    const big = formatted('purchase.order', { domain: [], groupby: ['state'], aggregates: ['__count'], having: [['__count', '>', 1000]] });
    expect(big).toEqual([]);
    const expanded = formatted('fleet.vehicle.log.services', { domain: [['id', '=', 1]], groupby: ['state'], aggregates: ['__count'] }, { read_group_expand: true });
    expect(expanded.map((g) => [g['state'], g['__count']])).toEqual([
      ['new', 0],
      ['running', 0],
      ['done', 1],
      ['cancelled', 0],
    ]);
  });

  test('absent before 19', () => {
    expect(boxes[17].handle.orm.lookupMethod('purchase.order', 'formatted_read_group')).toBeUndefined();
    expect(boxes[18].handle.orm.lookupMethod('purchase.order', 'formatted_read_group')).toBeUndefined();
    expect(boxes[19].handle.orm.lookupMethod('purchase.order', '_read_group')).toBe('private');
  });
});

describe('errors, as each version raises them', () => {
  const error = (version: OdooVersion, named: Record<string, unknown>, uid = ADMIN_UID) =>
    boxes[version].error('purchase.order', 'read_group', [], { domain: [], fields: [], groupby: ['state'], ...named }, { uid });

  test.each([
    [{ groupby: ['no_such_field'] }, 'builtins.ValueError', "Invalid field 'no_such_field' on model 'purchase.order'"],
    [{ groupby: ['state:month'] }, 'builtins.ValueError', "Granularity set on a no-datetime field or property: 'state:month'"],
    [{ groupby: ['date_order:decade'] }, 'builtins.ValueError', "Granularity specification isn't correct: 'decade'"],
    [{ fields: ['amount_total:median'] }, 'builtins.ValueError', "Invalid aggregate method 'median' for 'amount_total:median'."],
    [{ fields: ['nope:sum'] }, 'builtins.ValueError', "Invalid field 'nope' on model 'purchase.order' for 'nope:sum'."],
    [{ fields: ['name:sum'] }, 'psycopg2.errors.UndefinedFunction', expect.stringMatching(/^function sum\(character varying\) does not exist\nHINT: /)],
    [{ fields: ['date_order:avg'] }, 'psycopg2.errors.UndefinedFunction', expect.stringMatching(/^function avg\(timestamp without time zone\) does not exist/)],
    [{ orderby: 'nope desc' }, 'builtins.ValueError', "Order term 'nope desc' is not a valid aggregate nor valid groupby"],
    [{ orderby: 'state;' }, 'builtins.ValueError', "Invalid order 'state;' for _read_group()"],
    [{ limit: -1 }, 'psycopg2.errors.InvalidRowCountInLimitClause', 'LIMIT must not be negative\n'],
  ])('%j', (named, name, message) => {
    for (const version of V) {
      const e = error(version, named);
      expect([e.exceptionName, e.message]).toEqual([name, message]);
    }
  });

  test('a field without a column: 17 "Cannot convert field", 18/19 "because it is not stored"', () => {
    expect(error(17, { groupby: ['display_name'] }).message).toBe('Cannot convert field purchase.order.display_name to SQL');
    expect(error(18, { groupby: ['display_name'] }).message).toBe('Cannot convert purchase.order.display_name to SQL because it is not stored');
    expect(error(19, { groupby: ['display_name'] }).message).toBe('Cannot convert purchase.order.display_name to SQL because it is not stored');
  });

  test('the read right is checked (AccessError), after the groupby names in read_group', () => {
    for (const version of V) {
      const denied = boxes[version].error('fleet.vehicle', 'read_group', [], { domain: [], fields: [], groupby: ['state_id'] }, { uid: NO_FLEET_UID });
      expect(denied.exceptionName).toBe('odoo.exceptions.AccessError');
      const first = boxes[version].error('fleet.vehicle', 'read_group', [], { domain: [], fields: [], groupby: ['nope'] }, { uid: NO_FLEET_UID });
      expect(first.exceptionName).toBe('builtins.ValueError');
    }
  });
});
