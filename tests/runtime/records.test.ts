/** ERP rows become API records: false is null except for booleans, relations by id or name, UTC Z datetimes. */
import { compileMapper, serialiseDistribution, type RelatedValues } from '@ops-data-gateway/gateway/runtime/records';
import { FLEET_VEHICLES } from '@ops-data-gateway/gateway/generated/resources/fleet';
import type { FleetVehiclesRecord } from '@ops-data-gateway/gateway/generated/types/fleet';
import { PURCHASE_ORDER_LINES } from '@ops-data-gateway/gateway/generated/resources/purchase';
import { IT_TICKETS } from '@ops-data-gateway/gateway/generated/resources/it';

const urlFor = (model: string, id: number) => `https://erp.example.test/web#id=${id}&model=${model}&view_type=form`;
/**
 * The catalogue's fields of vehicles named here: a field exposed later (README) leaves these cases as
 * they are, and a field renamed in the catalogue fails the type check here (generated record type).
 */
const vehicleFields = (...names: (keyof FleetVehiclesRecord)[]) => FLEET_VEHICLES.fields.filter((f) => names.includes(f.name));

describe(compileMapper.name, () => {
  it('maps a vehicle row', () => {
    const expected: Partial<FleetVehiclesRecord> = {
      id: 7,
      plate: 'AB-123-CD',
      model: 'Toyota Hilux',
      vin: null,
      driver: null,
      seats: 5,
      fuel_type: 'diesel',
      odometer: 1234.5,
      state: 'Registered',
      assignation_state: 'free',
      acquisition_date: '2024-05-01',
      insurance_expiry: null,
      technical_control_expiry: '2027-01-31',
      next_alert_date: null,
      avg_consumption: 8.4,
      total_km_last_year: 0,
      company: 'Opérations Nord',
      url: 'https://erp.example.test/web#id=7&model=fleet.vehicle&view_type=form',
    };
    const map = compileMapper(FLEET_VEHICLES, vehicleFields(...(Object.keys(expected) as (keyof FleetVehiclesRecord)[])), { urlFor });
    const record = map(
      {
        id: 7,
        license_plate: 'AB-123-CD',
        model_id: [3, 'Toyota Hilux'],
        vin_sn: false,
        driver_id: false,
        seats: 5,
        fuel_type: 'diesel',
        odometer: 1234.5,
        state_id: [1, 'Registered'],
        assignation_state: 'free',
        acquisition_date: '2024-05-01',
        insurance_expiry: false,
        technical_control_expiry: '2027-01-31',
        next_alert_date: false,
        avg_consumption: 8.4,
        total_km_last_year: 0,
        company_id: [1, 'Opérations Nord'],
      },
      new Map(),
    );
    expect(record).toEqual(expected);
  });

  it('answers null for unreadable fields, whatever the row holds', () => {
    const map = compileMapper(FLEET_VEHICLES, vehicleFields('id', 'plate', 'odometer'), { urlFor, unreadable: new Set(['odometer']) });
    expect(map({ id: 1, odometer: 99 }, new Map())['odometer']).toBeNull();
  });

  it('turns datetimes into ISO 8601 UTC with Z, keeps false booleans, takes related names and first of x2many', () => {
    const fields = IT_TICKETS.fields.filter((f) => ['id', 'is_closed', 'assigned_date', 'assignees', 'assignee', 'requester_email', 'priority'].includes(f.name));
    const related: RelatedValues = new Map<string, Map<number, unknown>>([
      [
        'res.users.display_name',
        new Map<number, unknown>([
          [4, 'Awa Ndiaye'],
          [9, 'Jean Dupont'],
        ]),
      ],
      ['partner_id>res.partner.email', new Map<number, unknown>([[12, 'awa@example.test']])],
    ]);
    const record = compileMapper(IT_TICKETS, fields, { urlFor })(
      { id: 3, is_closed: false, assigned_date: '2026-01-31 08:30:00', user_ids: [9, 4], partner_id: [12, 'Awa'], priority: '2' },
      related,
    );
    expect(record).toEqual({
      id: 3,
      is_closed: false,
      assignees: ['Jean Dupont', 'Awa Ndiaye'],
      assignee: 'Jean Dupont',
      requester_email: 'awa@example.test',
      priority: '2',
      assigned_date: '2026-01-31T08:30:00Z',
    });
  });

  it('serialises analytic distributions as compact JSON with float percentages (D7) and names their accounts (D6)', () => {
    expect(serialiseDistribution({ '12': 60, '15': 40.5 })).toBe('{"12":60.0,"15":40.5}');
    expect(serialiseDistribution(false)).toBeNull();
    expect(serialiseDistribution({})).toBeNull();
    const fields = PURCHASE_ORDER_LINES.fields.filter((f) => ['id', 'analytic_accounts', 'analytic_distribution'].includes(f.name));
    const related: RelatedValues = new Map([
      [
        'account.analytic.account.display_name',
        new Map<number, unknown>([
          [12, 'Projet A'],
          [15, 'Projet B'],
        ]),
      ],
    ]);
    const record = compileMapper(PURCHASE_ORDER_LINES, fields, { urlFor })({ id: 1, analytic_distribution: { '12,15': 100 } }, related);
    expect(record).toEqual({ id: 1, analytic_accounts: ['Projet A', 'Projet B'], analytic_distribution: '{"12,15":100.0}' });
  });
});
