/**
 * @module Fleet models: Odoo's `fleet` module (vehicle, model, state, odometer, services) plus the
 * organisation's own models for reservations, trips, fuel logs, incidents, locations and alerts.
 */
import type { ModelDef } from '../orm/model-def';

/** Consumption of one fill over the distance since the previous one (l/100 km). */
const FILL_CONSUMPTION = `(CASE WHEN t."distance" > 0 THEN t."liters" * 100.0 / t."distance" END)`;
/** Average consumption of the fill's vehicle over all its fills (l/100 km). */
const VEHICLE_CONSUMPTION = `(SELECT SUM(f."liters") * 100.0 / NULLIF(SUM(f."distance"), 0) FROM "fleet_fuel_log" f WHERE f."vehicle_id" = t."vehicle_id" AND f."distance" > 0)`;
/** Relative deviation of the fill from the vehicle average (NULL when either is unknown). */
const DEVIATION = `(ABS(${FILL_CONSUMPTION} - ${VEHICLE_CONSUMPTION}) / NULLIF(${VEHICLE_CONSUMPTION}, 0))`;

/**
 * Odoo's stored `fleet.vehicle.name` (its display name): `brand/model/plate`, with 'No Plate' for a
 * vehicle without one. `v` is the alias of the `fleet_vehicle` row.
 */
const vehicleName = (v: string) =>
  `COALESCE((SELECT b."name" FROM "fleet_vehicle_model" m JOIN "fleet_vehicle_model_brand" b ON b."id" = m."brand_id" WHERE m."id" = ${v}."model_id"), '') || '/' || ` +
  `COALESCE((SELECT m."name" FROM "fleet_vehicle_model" m WHERE m."id" = ${v}."model_id"), '') || '/' || COALESCE(NULLIF(${v}."license_plate", ''), 'No Plate')`;

export const FLEET_MODELS: readonly ModelDef[] = [
  {
    name: 'fleet.vehicle.model.brand',
    description: 'Brand of the vehicle',
    order: 'name asc',
    demoRows: 10,
    fields: {
      name: { type: 'char', required: true, demo: { pick: ['Toyota', 'Renault', 'Peugeot', 'Nissan', 'Dacia', 'Mitsubishi', 'Hyundai', 'Ford', 'Suzuki', 'Škoda'] } },
    },
  },
  {
    name: 'fleet.vehicle.model',
    description: 'Model of a vehicle',
    order: 'name asc',
    // Odoo: `brand/name` when the model has a brand.
    displayName: `COALESCE((SELECT b."name" FROM "fleet_vehicle_model_brand" b WHERE b."id" = t."brand_id") || '/', '') || t."name"`,
    nameSearch: ['name', 'brand_id.name'],
    nameSearch17: 'ilike-always',
    demoRows: 12,
    fields: {
      // Each model's make among the demo brands (picked, no random draw: the other demo values stay).
      brand_id: { type: 'many2one', relation: 'fleet.vehicle.model.brand', string: 'Manufacturer', required: true, demo: { pick: [1, 1, 2, 3, 4, 5, 6, 7, 2, 8, 9, 10] } },
      name: {
        type: 'char',
        required: true,
        demo: { pick: ['Hilux', 'Land Cruiser', 'Duster', '308', 'Navara', 'Logan', 'L200', 'H-1', 'Zoé', 'Ranger', 'Jimny', 'Octavia'] },
      },
    },
  },
  {
    name: 'fleet.vehicle.state',
    description: 'Vehicle Status',
    order: 'sequence asc',
    demoRows: 5,
    fields: {
      name: { type: 'char', required: true, demo: { pick: ['New Request', 'To Order', 'Registered', 'Downgraded', 'Réformé'] } },
      sequence: { type: 'integer', demo: { int: [1, 10] } },
      // 19 only: the `__fold` of a vehicle grouped read comes from here.
      fold: { type: 'boolean', string: 'Folded in Kanban', since: 19, truthy: 0, ownDemoStream: true },
    },
  },
  {
    name: 'fleet.vehicle',
    description: 'Vehicle',
    order: 'license_plate asc, acquisition_date asc',
    displayName: vehicleName('t'),
    demoRows: 150,
    fields: {
      name: { type: 'char', readonly: true, demo: { gen: 'title' } },
      license_plate: { type: 'char', demo: { gen: 'plate' } },
      model_id: { type: 'many2one', relation: 'fleet.vehicle.model', required: true },
      vin_sn: { type: 'char', string: 'Chassis Number', demo: { gen: 'vin' } },
      // Odoo computes it from the model (stored, editable); docs/catalogue.md's "Exposing one more field" uses it.
      color: { type: 'char', help: 'Color of the vehicle', demo: { pick: ['Black', 'White', 'Grey', 'Blue', 'Red', 'Silver'] }, empty: 0.3, ownDemoStream: true },
      driver_id: { type: 'many2one', relation: 'res.partner', empty: 0.2 },
      seats: { type: 'integer', demo: { pick: [2, 4, 5, 7, 9, 15] } },
      fuel_type: {
        type: 'selection',
        selection: [
          ['diesel', 'Diesel'],
          ['gasoline', 'Gasoline'],
          ['full_hybrid', 'Full Hybrid'],
          ['plug_in_hybrid_diesel', 'Plug-in Hybrid Diesel'],
          ['plug_in_hybrid_gasoline', 'Plug-in Hybrid Gasoline'],
          ['cng', 'CNG'],
          ['lpg', 'LPG'],
          ['hydrogen', 'Hydrogen'],
          ['electric', 'Electric'],
        ],
      },
      odometer: {
        type: 'float',
        readonly: false,
        string: 'Last Odometer',
        // Odoo computes it from the odometer log: reading it needs read right on that model.
        compute: `COALESCE((SELECT o."value" FROM "fleet_vehicle_odometer" o WHERE o."vehicle_id" = t."id" ORDER BY o."date" DESC, o."id" DESC LIMIT 1), 0)`,
        searchable: false,
        requires: 'fleet.vehicle.odometer',
      },
      // Odoo's `group_expand`: 17 `_read_group_stage_ids` (every state, in the order it is given), 18/19 `_read_group_expand_full`.
      state_id: { type: 'many2one', relation: 'fleet.vehicle.state', groupExpand: 'records', groupExpandUsesOrder: true },
      assignation_state: {
        type: 'selection',
        selection: [
          ['free', 'Free'],
          ['assigned', 'Assigned'],
          ['maintenance', 'In maintenance'],
          ['out_of_service', 'Out of service'],
          ['sold', 'Sold'],
        ],
        required: true,
      },
      acquisition_date: { type: 'date', demo: { days: [-3650, -30] } },
      insurance_expiry: { type: 'date', demo: { days: [-60, 365] } },
      technical_control_expiry: { type: 'date', demo: { days: [-60, 730] } },
      company_id: { type: 'many2one', relation: 'res.company', empty: 0 },
      active: { type: 'boolean', truthy: 0.9 },
      next_alert_date: {
        type: 'date',
        string: 'Next Due Date',
        // Earliest due date among the vehicle's alerts not handled yet (overdue ones included).
        compute: `(SELECT MIN(a."due_date") FROM "fleet_alert" a WHERE a."vehicle_id" = t."id" AND a."handled_at" IS NULL)`,
        requires: 'fleet.alert',
      },
      avg_consumption: {
        type: 'float',
        string: 'Average Consumption (l/100 km)',
        digits: 2,
        // Litres over kilometres of every fill whose distance is known.
        compute: `(SELECT ROUND(SUM(f."liters") * 100.0 / NULLIF(SUM(f."distance"), 0), 2) FROM "fleet_fuel_log" f WHERE f."vehicle_id" = t."id" AND f."distance" > 0)`,
        requires: 'fleet.fuel.log',
      },
      total_km_last_year: {
        type: 'float',
        string: 'Distance Over the Last 12 Months (km)',
        digits: 1,
        compute: `COALESCE((SELECT SUM(COALESCE(tr."distance", 0)) FROM "fleet_trip" tr WHERE tr."vehicle_id" = t."id" AND tr."date" > date(:today, '-1 year') AND tr."date" <= :today), 0)`,
        requires: 'fleet.trip',
      },
    },
  },
  {
    name: 'fleet.vehicle.odometer',
    description: 'Odometer log for a vehicle',
    order: 'date desc',
    // Odoo's stored `name`: the vehicle's name, then ' / ' and the date.
    displayName: `COALESCE((SELECT ${vehicleName('v')} FROM "fleet_vehicle" v WHERE v."id" = t."vehicle_id") || COALESCE(' / ' || t."date", ''), t."date")`,
    demoRows: 600,
    fields: {
      vehicle_id: { type: 'many2one', relation: 'fleet.vehicle', required: true },
      date: { type: 'date', demo: { days: [-730, 0] } },
      value: { type: 'float', string: 'Odometer Value', aggregator: 'max', demo: { float: [1000, 250000, 0] } },
    },
  },
  {
    name: 'fleet.service.type',
    description: 'Fleet Service Type',
    order: 'name',
    demoRows: 8,
    fields: {
      name: {
        type: 'char',
        required: true,
        demo: { pick: ['Vidange', 'Remplacement des pneus', 'Révision générale', 'Freins et plaquettes', 'Batterie', 'Carrosserie', 'Climatisation', 'Contrat d’entretien'] },
      },
      category: {
        type: 'selection',
        selection: [
          ['contract', 'Contract'],
          ['service', 'Service'],
        ],
        required: true,
        demo: { pick: ['service', 'service', 'service', 'service', 'service', 'service', 'service', 'contract'] },
      },
    },
  },
  {
    name: 'fleet.vehicle.log.services',
    description: 'Services for vehicles',
    recName: 'service_type_id',
    demoRows: 300,
    fields: {
      // The odometer log taken with the service: vehicle and date follow it.
      odometer_id: { type: 'many2one', relation: 'fleet.vehicle.odometer', string: 'Odometer', empty: 0 },
      vehicle_id: { type: 'many2one', relation: 'fleet.vehicle', required: true, demo: { copy: 'odometer_id.vehicle_id' } },
      date: { type: 'date', demo: { copy: 'odometer_id.date' } },
      description: { type: 'char', demo: { gen: 'title' }, empty: 0.1 },
      service_type_id: { type: 'many2one', relation: 'fleet.service.type', string: 'Service Type', required: true },
      service_kind: {
        type: 'selection',
        string: 'Kind of Service',
        selection: [
          ['preventive', 'Preventive'],
          ['curative', 'Curative'],
        ],
        empty: 0,
      },
      amount: { type: 'monetary', string: 'Cost', demo: { float: [15000, 900000, 0] } },
      line_ids: { type: 'one2many', relation: 'fleet.vehicle.log.services.line', inverse: 'service_id', string: 'Detail Lines' },
      total_cost: {
        type: 'monetary',
        string: 'Total Cost',
        // The service's own amount plus its detail lines.
        compute: `COALESCE(t."amount", 0) + COALESCE((SELECT SUM(l."amount") FROM "fleet_vehicle_log_services_line" l WHERE l."service_id" = t."id"), 0)`,
        requires: 'fleet.vehicle.log.services.line',
      },
      company_id: { type: 'many2one', relation: 'res.company', empty: 0 },
      currency_id: { type: 'many2one', readonly: true, relation: 'res.currency', related: 'company_id.currency_id', demo: { copy: 'company_id.currency_id' }, empty: 0 },
      odometer: {
        type: 'float',
        readonly: false,
        string: 'Odometer Value',
        compute: `(SELECT o."value" FROM "fleet_vehicle_odometer" o WHERE o."id" = t."odometer_id")`,
        searchable: false,
        requires: 'fleet.vehicle.odometer',
      },
      next_service_odometer: { type: 'float', string: 'Next Service at (km)', demo: { float: [5000, 260000, 0] }, empty: 0.3 },
      purchaser_id: { type: 'many2one', relation: 'res.partner', string: 'Driver', demo: { copy: 'vehicle_id.driver_id' } },
      vendor_id: { type: 'many2one', relation: 'res.partner', string: 'Vendor', empty: 0.15 },
      inv_ref: { type: 'char', string: 'Vendor Reference', demo: { seq: 'FAC' }, empty: 0.3 },
      notes: { type: 'text', demo: { gen: 'sentence' }, empty: 0.6 },
      state: {
        type: 'selection',
        string: 'Stage',
        selection: [
          ['new', 'New'],
          ['running', 'Running'],
          ['done', 'Done'],
          ['cancelled', 'Cancelled'],
        ],
        // Odoo: `group_expand` (17 `_expand_states`, 18/19 `True`): every state.
        groupExpand: 'selection',
        empty: 0,
      },
      active: { type: 'boolean', truthy: 1 },
    },
  },
  {
    name: 'fleet.vehicle.log.services.line',
    description: 'Detail line of a vehicle service (parts, labour)',
    order: 'service_id, id',
    demoRows: 400,
    fields: {
      service_id: { type: 'many2one', relation: 'fleet.vehicle.log.services', required: true },
      name: {
        type: 'char',
        required: true,
        demo: {
          pick: ['Filtre à huile', 'Huile moteur 5W30', 'Main-d’œuvre', 'Plaquettes de frein', 'Pneu 215/65 R16', 'Batterie 12 V', 'Liquide de refroidissement', 'Essuie-glaces'],
        },
      },
      product_id: { type: 'many2one', relation: 'product.product', empty: 0.3 },
      quantity: { type: 'float', demo: { float: [1, 4, 0] } },
      amount: { type: 'monetary', string: 'Amount', demo: { float: [2500, 250000, 0] } },
    },
  },
  {
    name: 'fleet.location',
    description: 'Fleet location (pick-up point, garage, station)',
    order: 'sequence asc, name asc',
    demoRows: 14,
    fields: {
      name: {
        type: 'char',
        required: true,
        demo: {
          pick: [
            'Parking du siège',
            'Garage central',
            'Base logistique',
            'Dépôt de l’aéroport',
            'Antenne Nord',
            'Gare routière',
            'Parc de Thiès',
            'Bureau de Ziguinchor',
            'Entrepôt Rufisque',
            'Camp de Kédougou',
            'Parking Plateau',
            'Base Saint-Louis',
            'Point relais Mbour',
            'Atelier Hann',
          ],
        },
      },
      code: { type: 'char', demo: { gen: 'code' } },
      sequence: { type: 'integer', demo: { int: [1, 20] } },
      address: { type: 'char', demo: { gen: 'street' }, empty: 0.1 },
      city: { type: 'char', demo: { gen: 'city' }, empty: 0.05 },
      country_id: { type: 'many2one', relation: 'res.country', empty: 0.05 },
      latitude: { type: 'float', digits: 6, demo: { gen: 'latitude' }, empty: 0.15 },
      longitude: { type: 'float', digits: 6, demo: { gen: 'longitude' }, empty: 0.15 },
      is_default_pickup: { type: 'boolean', string: 'Default Pick-up Point', truthy: 0.15 },
      company_id: { type: 'many2one', relation: 'res.company', required: true },
      active: { type: 'boolean', truthy: 0.85 },
    },
  },
  {
    name: 'fleet.reservation',
    description: 'Vehicle request',
    order: 'start desc',
    demoRows: 300,
    fields: {
      name: { type: 'char', string: 'Reference', required: true, demo: { seq: 'RES' } },
      vehicle_id: { type: 'many2one', relation: 'fleet.vehicle', empty: 0.1 },
      driver_id: { type: 'many2one', relation: 'res.partner', string: 'Driver', empty: 0.15 },
      requester_id: { type: 'many2one', relation: 'res.users', string: 'Requested by', required: true },
      start: { type: 'datetime', required: true, demo: { days: [-365, 90] } },
      stop: { type: 'datetime', required: true, demo: { after: 'start', hours: [1, 72] } },
      duration: {
        type: 'float',
        string: 'Duration (hours)',
        digits: 2,
        compute: `ROUND((julianday(t."stop") - julianday(t."start")) * 24, 2)`,
      },
      motive: { type: 'char', demo: { gen: 'title' } },
      pickup_location_id: { type: 'many2one', relation: 'fleet.location', string: 'Pick-up Location', empty: 0.1 },
      destination: { type: 'char', demo: { gen: 'city' } },
      expected_km: { type: 'float', string: 'Expected Distance (km)', demo: { float: [5, 900, 0] }, empty: 0.1 },
      attendees_count: { type: 'integer', string: 'Expected Passengers', demo: { int: [1, 8] } },
      origin: {
        type: 'selection',
        selection: [
          ['internal', 'Internal'],
          ['public', 'Public'],
        ],
        empty: 0,
      },
      state: {
        type: 'selection',
        selection: [
          ['draft', 'Draft'],
          ['pending', 'Pending approval'],
          ['approved', 'Approved'],
          ['in_progress', 'In progress'],
          ['done', 'Done'],
          ['refused', 'Refused'],
          ['cancelled', 'Cancelled'],
        ],
        required: true,
      },
      approver_id: { type: 'many2one', relation: 'res.users', string: 'Approver', empty: 0.4 },
      approved_at: { type: 'datetime', demo: { days: [-370, 85] }, empty: 0.45 },
      refusal_reason: { type: 'text', demo: { gen: 'sentence' }, empty: 0.85 },
      company_id: { type: 'many2one', relation: 'res.company', required: true },
    },
  },
  {
    name: 'fleet.trip',
    description: 'Vehicle trip',
    order: 'date desc, id desc',
    demoRows: 400,
    fields: {
      name: { type: 'char', string: 'Reference', required: true, demo: { seq: 'TRJ' } },
      reservation_id: { type: 'many2one', relation: 'fleet.reservation', string: 'Reservation', empty: 0.4 },
      vehicle_id: { type: 'many2one', relation: 'fleet.vehicle', required: true },
      driver_id: { type: 'many2one', relation: 'res.partner', string: 'Driver', empty: 0.05 },
      date: { type: 'date', required: true, demo: { days: [-400, 30] } },
      date_start: { type: 'datetime', string: 'Departure', demo: { after: 'date', hours: [6, 11] } },
      date_end: { type: 'datetime', string: 'Arrival', demo: { after: 'date_start', hours: [1, 10] }, empty: 0.05 },
      odometer_start: { type: 'float', string: 'Odometer at Departure', demo: { float: [1000, 240000, 0] } },
      distance: { type: 'float', string: 'Distance (km)', demo: { float: [3, 650, 0] }, empty: 0.05 },
      odometer_end: {
        type: 'float',
        string: 'Odometer at Arrival',
        compute: `CASE WHEN t."odometer_start" IS NOT NULL AND t."distance" IS NOT NULL THEN t."odometer_start" + t."distance" END`,
      },
      motive: { type: 'char', demo: { gen: 'title' } },
      destination: { type: 'char', demo: { gen: 'city' } },
      analytic_account_id: { type: 'many2one', relation: 'account.analytic.account', string: 'Analytic Account', empty: 0.2 },
      company_id: { type: 'many2one', relation: 'res.company', required: true },
    },
  },
  {
    name: 'fleet.fuel.log',
    description: 'Fuel log',
    order: 'date desc, id desc',
    demoRows: 400,
    fields: {
      name: { type: 'char', string: 'Reference', required: true, demo: { seq: 'CARB' } },
      vehicle_id: { type: 'many2one', relation: 'fleet.vehicle', required: true },
      driver_id: { type: 'many2one', relation: 'res.partner', string: 'Driver', demo: { copy: 'vehicle_id.driver_id' } },
      date: { type: 'datetime', required: true, demo: { days: [-400, 0] } },
      station: {
        type: 'char',
        demo: { pick: ['TotalEnergies Liberté 6', 'Shell VDN', 'Oryx Hann', 'Elton Rufisque', 'Star Oil Thiès', 'TotalEnergies Ouakam', 'Shell Mbour', 'Station Édk Saint-Louis'] },
        empty: 0.05,
      },
      liters: { type: 'float', string: 'Litres', digits: 2, demo: { float: [30, 60] } },
      price_per_liter: { type: 'float', string: 'Price per Litre', digits: 2, demo: { float: [650, 1000, 0] } },
      total_amount: {
        type: 'monetary',
        string: 'Total Amount',
        compute: `ROUND(COALESCE(t."liters", 0) * COALESCE(t."price_per_liter", 0), 2)`,
      },
      currency_id: { type: 'many2one', relation: 'res.currency', demo: { copy: 'company_id.currency_id' }, empty: 0 },
      odometer: { type: 'float', string: 'Odometer Value', demo: { float: [1000, 250000, 0] }, empty: 0.05 },
      distance: { type: 'float', string: 'Distance Since Previous Fill (km)', demo: { float: [350, 650, 0] }, empty: 0.05 },
      consumption: {
        type: 'float',
        string: 'Consumption (l/100 km)',
        digits: 2,
        compute: `ROUND(${FILL_CONSUMPTION}, 2)`,
      },
      is_anomaly: {
        type: 'boolean',
        string: 'Consumption Anomaly',
        compute: `(COALESCE(${DEVIATION}, 0) >= 0.2)`,
      },
      anomaly_severity: {
        type: 'selection',
        selection: [
          ['none', 'None'],
          ['low', 'Low'],
          ['medium', 'Medium'],
          ['high', 'High'],
        ],
        compute: `CASE WHEN COALESCE(${DEVIATION}, 0) >= 0.5 THEN 'high' WHEN COALESCE(${DEVIATION}, 0) >= 0.35 THEN 'medium' WHEN COALESCE(${DEVIATION}, 0) >= 0.2 THEN 'low' ELSE 'none' END`,
      },
      anomaly_reason: {
        type: 'char',
        compute: `CASE WHEN COALESCE(${DEVIATION}, 0) >= 0.2 THEN 'Consumption ' || CAST(ROUND(${DEVIATION} * 100) AS INTEGER) || '% ' || CASE WHEN ${FILL_CONSUMPTION} > ${VEHICLE_CONSUMPTION} THEN 'above' ELSE 'below' END || ' the vehicle average' END`,
      },
      reviewed: { type: 'boolean', string: 'Reviewed by a Manager', truthy: 0.3 },
      company_id: { type: 'many2one', relation: 'res.company', required: true },
    },
  },
  {
    name: 'fleet.incident',
    description: 'Vehicle incident',
    order: 'date desc, id desc',
    demoRows: 150,
    fields: {
      name: {
        type: 'char',
        required: true,
        demo: {
          pick: [
            'Rayure de carrosserie',
            'Crevaison',
            'Bris de glace',
            'Accrochage sur parking',
            'Panne moteur',
            'Choc arrière',
            'Rétroviseur cassé',
            'Collision légère',
            'Phare endommagé',
            'Sortie de route',
          ],
        },
      },
      vehicle_id: { type: 'many2one', relation: 'fleet.vehicle', required: true },
      driver_id: { type: 'many2one', relation: 'res.partner', string: 'Driver', empty: 0.1 },
      date: { type: 'date', required: true, demo: { days: [-540, 0] } },
      severity: {
        type: 'selection',
        selection: [
          ['minor', 'Minor'],
          ['moderate', 'Moderate'],
          ['major', 'Major'],
          ['critical', 'Critical'],
        ],
        required: true,
      },
      description: { type: 'text', demo: { gen: 'sentence' }, empty: 0.2 },
      cost: { type: 'monetary', string: 'Estimated Cost', demo: { float: [0, 2500000, 0] }, empty: 0.1 },
      currency_id: { type: 'many2one', relation: 'res.currency', demo: { copy: 'company_id.currency_id' }, empty: 0 },
      company_id: { type: 'many2one', relation: 'res.company', required: true },
    },
  },
  {
    name: 'fleet.alert',
    description: 'Vehicle due-date alert',
    order: 'due_date asc, id',
    demoRows: 250,
    fields: {
      name: {
        type: 'char',
        required: true,
        demo: { pick: ['Échéance de l’assurance', 'Contrôle technique', 'Entretien kilométrique', 'Renouvellement du permis', 'Rappel divers'] },
      },
      vehicle_id: { type: 'many2one', relation: 'fleet.vehicle', required: true },
      alert_type: {
        type: 'selection',
        string: 'Type',
        selection: [
          ['assurance', 'Insurance'],
          ['controle_technique', 'Technical control'],
          ['entretien_km', 'Mileage service'],
          ['permit', 'Driving permit'],
          ['custom', 'Other'],
        ],
        required: true,
        demo: { pick: ['assurance', 'controle_technique', 'entretien_km', 'permit', 'custom'] },
      },
      due_date: { type: 'date', required: true, demo: { days: [-120, 365] } },
      reminder_days: { type: 'integer', string: 'Reminder (days before)', demo: { pick: [7, 15, 30, 45, 60] } },
      handled_at: { type: 'datetime', demo: { days: [-150, 0] }, empty: 0.55 },
      handled_by_id: { type: 'many2one', relation: 'res.users', string: 'Handled by', empty: 0.55 },
      state: {
        type: 'selection',
        selection: [
          ['pending', 'Pending'],
          ['handled', 'Handled'],
          ['late', 'Late'],
        ],
        // Handled once someone dealt with it; late when the due date has passed without that.
        compute: `CASE WHEN t."handled_at" IS NOT NULL THEN 'handled' WHEN t."due_date" < :today THEN 'late' ELSE 'pending' END`,
      },
      company_id: { type: 'many2one', relation: 'res.company', required: true },
    },
  },
];
