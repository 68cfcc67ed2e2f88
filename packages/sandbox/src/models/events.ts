/**
 * @module Events models: Odoo's `event` module (event, registration, template, stage, ticket) with
 * the organisation's own fields on `event.event` (activity, space and reservation links, referent,
 * origin, review state, public visibility, preparation checklist) and its checklist task model.
 */
import type { ModelDef } from '../orm/model-def';

export const EVENTS_MODELS: readonly ModelDef[] = [
  {
    name: 'event.type',
    description: 'Event Template',
    order: 'sequence, id',
    demoRows: 6,
    fields: {
      name: { type: 'char', string: 'Event Template', required: true, demo: { pick: ['Conférence', 'Atelier', 'Formation', 'Séminaire', 'Webinaire', 'Portes ouvertes'] } },
      sequence: { type: 'integer', demo: { int: [1, 20] } },
      has_seats_limitation: { type: 'boolean', string: 'Limited Seats', truthy: 0.6 },
      seats_max: { type: 'integer', string: 'Maximum Registrations', demo: { pick: [0, 30, 50, 100, 200] } },
    },
  },
  {
    name: 'event.stage',
    description: 'Event Stage',
    order: 'sequence, name',
    demoRows: 5,
    fields: {
      name: { type: 'char', string: 'Stage Name', required: true, demo: { pick: ['Nouveau', 'Réservé', 'Annoncé', 'Terminé', 'Annulé'] } },
      sequence: { type: 'integer', demo: { pick: [1, 2, 3, 4, 5] } },
      fold: { type: 'boolean', string: 'Folded in Kanban', truthy: 0.4 },
      pipe_end: { type: 'boolean', string: 'End Stage', truthy: 0.4 },
    },
  },
  {
    name: 'event.event',
    description: 'Event',
    order: 'date_begin, id',
    demoRows: 150,
    fields: {
      name: { type: 'char', string: 'Event', required: true, demo: { gen: 'title' } },
      event_type_id: { type: 'many2one', relation: 'event.type', string: 'Template', empty: 0.15 },
      activity_id: { type: 'many2one', relation: 'space.activity', string: 'Activity', empty: 0.1 },
      // Odoo's `group_expand`: every stage (17 `_read_group_stage_ids`, 18/19 `_read_group_expand_full`).
      stage_id: { type: 'many2one', relation: 'event.stage', string: 'Stage', groupExpand: 'records', empty: 0 },
      date_begin: { type: 'datetime', string: 'Start Date', required: true, demo: { days: [-365, 90] } },
      date_end: { type: 'datetime', string: 'End Date', required: true, demo: { after: 'date_begin', hours: [2, 72] } },
      is_ongoing: {
        type: 'boolean',
        string: 'Is Ongoing',
        compute: `CASE WHEN t."date_begin" <= :now AND t."date_end" > :now THEN 1 ELSE 0 END`,
      },
      space_id: { type: 'many2one', relation: 'space.space', string: 'Space', empty: 0.15 },
      reservation_id: { type: 'many2one', relation: 'space.reservation', string: 'Space Reservation', empty: 0.3 },
      seats_limited: { type: 'boolean', string: 'Limit Attendees', required: true, emptyBeforeRequired: 0.05, truthy: 0.7 },
      seats_max: { type: 'integer', string: 'Maximum Attendees', demo: { pick: [0, 20, 30, 50, 80, 120, 200] }, empty: 0 },
      seats_taken: {
        type: 'integer',
        string: 'Number of Taken Seats',
        compute: `(SELECT COUNT(*) FROM "event_registration" r WHERE r."event_id" = t."id" AND r."state" IN ('open', 'done') AND COALESCE(r."active", 1) = 1)`,
        searchable: false,
      },
      seats_available: {
        type: 'integer',
        string: 'Available Seats',
        compute: `CASE WHEN COALESCE(t."seats_max", 0) > 0 THEN t."seats_max" - (SELECT COUNT(*) FROM "event_registration" r WHERE r."event_id" = t."id" AND r."state" IN ('open', 'done') AND COALESCE(r."active", 1) = 1) ELSE 0 END`,
        searchable: false,
      },
      organizer_id: { type: 'many2one', relation: 'res.partner', string: 'Organizer', empty: 0.1 },
      user_id: { type: 'many2one', relation: 'res.users', string: 'Responsible', empty: 0.05 },
      referent_id: { type: 'many2one', relation: 'res.users', string: 'Referent', empty: 0.2 },
      origin: {
        type: 'selection',
        string: 'Origin',
        selection: [
          ['internal', 'Internal'],
          ['public', 'Public'],
        ],
        required: true,
      },
      review_state: {
        type: 'selection',
        string: 'Review State',
        selection: [
          ['approved', 'Approved'],
          ['pending', 'Pending review'],
          ['refused', 'Refused'],
        ],
        required: true,
      },
      hidden_public: { type: 'boolean', string: 'Hidden on Public Site', truthy: 0.3 },
      checklist_enabled: { type: 'boolean', string: 'Preparation Checklist', truthy: 0.7 },
      checklist_progress: {
        type: 'float',
        string: 'Checklist Progress (%)',
        digits: 1,
        // Odoo computes it from the checklist tasks: reading it needs read right on that model.
        compute: `COALESCE((SELECT ROUND(100.0 * SUM(CASE WHEN k."done" = 1 THEN 1 ELSE 0 END) / COUNT(*), 1) FROM "event_checklist_task" k WHERE k."event_id" = t."id"), 0)`,
        requires: 'event.checklist.task',
      },
      task_ids: { type: 'one2many', relation: 'event.checklist.task', inverse: 'event_id', string: 'Checklist Tasks' },
      registration_ids: { type: 'one2many', relation: 'event.registration', inverse: 'event_id', string: 'Attendees' },
      company_id: { type: 'many2one', relation: 'res.company', string: 'Company', empty: 0.05 },
      active: { type: 'boolean', truthy: 0.95 },
    },
  },
  {
    name: 'event.event.ticket',
    description: 'Event Ticket',
    order: 'event_id, sequence, name, id',
    demoRows: 200,
    fields: {
      name: { type: 'char', string: 'Name', required: true, demo: { pick: ['Standard', 'Tarif réduit', 'Invité', 'Intervenant', 'Bénévole', 'Presse'] } },
      event_id: { type: 'many2one', relation: 'event.event', string: 'Event', required: true },
      sequence: { type: 'integer', demo: { int: [1, 10] } },
      seats_max: { type: 'integer', string: 'Maximum Attendees', demo: { pick: [0, 10, 20, 50] } },
    },
  },
  {
    name: 'event.registration',
    description: 'Event Registration',
    order: 'id desc',
    displayName: `COALESCE(t."name", '#' || t."id")`,
    demoRows: 400,
    fields: {
      event_id: { type: 'many2one', relation: 'event.event', string: 'Event', required: true },
      event_ticket_id: { type: 'many2one', relation: 'event.event.ticket', string: 'Event Ticket', empty: 0.4 },
      active: { type: 'boolean', truthy: 0.97 },
      partner_id: { type: 'many2one', relation: 'res.partner', string: 'Booked by', empty: 0.2 },
      name: { type: 'char', string: 'Attendee Name', demo: { gen: 'person' }, empty: 0.02 },
      email: { type: 'char', string: 'Email', demo: { gen: 'email' }, empty: 0.05 },
      phone: { type: 'char', string: 'Phone', demo: { gen: 'phone' }, empty: 0.25 },
      company_id: { type: 'many2one', relation: 'res.company', string: 'Company', demo: { copy: 'event_id.company_id' } },
      state: {
        type: 'selection',
        readonly: true,
        string: 'Status',
        selection: [
          ['draft', 'Unconfirmed'],
          ['open', 'Registered'],
          ['done', 'Attended'],
          ['cancel', 'Cancelled'],
        ],
        empty: 0,
      },
    },
  },
  {
    name: 'event.checklist.task',
    description: 'Event Preparation Checklist Task',
    order: 'event_id desc, sequence asc, id',
    demoRows: 400,
    fields: {
      event_id: { type: 'many2one', relation: 'event.event', string: 'Event', required: true },
      name: {
        type: 'char',
        string: 'Task',
        required: true,
        demo: {
          pick: [
            'Réserver la salle',
            'Commander le traiteur',
            'Envoyer les invitations',
            'Préparer les badges',
            'Tester la sonorisation',
            'Imprimer le programme',
            'Confirmer les intervenants',
            'Publier l’annonce',
            'Installer la signalétique',
            'Bilan et remerciements',
          ],
        },
      },
      done: { type: 'boolean', string: 'Done', truthy: 0.55 },
      assigned_user_id: { type: 'many2one', relation: 'res.users', string: 'Assigned to', empty: 0.2 },
      sequence: { type: 'integer', demo: { int: [1, 20] } },
    },
  },
];
