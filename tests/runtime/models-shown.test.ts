/**
 * Which models an answer depends on (runtime/cache/models-shown.ts), on the generated resources: what
 * change detection watches for it. Too few would serve a changed answer until its TTL; too many only
 * cost checks, so what cannot be placed counts every field.
 */
import { FLEET_VEHICLES } from '@ops-data-gateway/gateway/generated/resources/fleet';
import { PURCHASE_ORDER_LINES, PURCHASE_ORDERS } from '@ops-data-gateway/gateway/generated/resources/purchase';
import { modelsShown } from '@ops-data-gateway/gateway/runtime/cache/models-shown';
import type { ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';

const field = (resource: ResourceSpec, name: string) => resource.fields.filter((f) => f.name === name);
const every = (resource: ResourceSpec) => [...modelsShown(resource)].sort();

describe('the models an answer depends on', () => {
  it('without what the answer shows: the model and every comodel a field shows data of', () => {
    expect(every(FLEET_VEHICLES)).toContain('res.partner');
    expect(every(FLEET_VEHICLES)).toContain('fleet.vehicle');
  });

  it('a sparse answer: its own model alone when its fields show no comodel and its order is its own column', () => {
    expect(modelsShown(FLEET_VEHICLES, { fields: field(FLEET_VEHICLES, 'plate'), order: 'license_plate asc, id asc' })).toEqual(['fleet.vehicle']);
  });

  it("an id of a many2one is the record's own column, its name is the comodel's", () => {
    expect(modelsShown(PURCHASE_ORDERS, { fields: field(PURCHASE_ORDERS, 'vendor_id'), order: 'id asc' })).toEqual(['purchase.order']);
    expect(modelsShown(PURCHASE_ORDERS, { fields: field(PURCHASE_ORDERS, 'vendor'), order: 'id asc' })).toEqual(['purchase.order', 'res.partner']);
  });

  it("records ordered by a many2one follow the comodel's order: it is watched", () => {
    expect(modelsShown(PURCHASE_ORDERS, { fields: field(PURCHASE_ORDERS, 'id'), order: 'partner_id desc, id asc' })).toEqual(['purchase.order', 'res.partner']);
  });

  it('records chosen through a filter on a comodel (order_id.state): the comodel is watched', () => {
    expect(modelsShown(PURCHASE_ORDER_LINES, { fields: field(PURCHASE_ORDER_LINES, 'id'), order: 'id asc', filterPaths: ['order_id.state'] })).toEqual([
      'purchase.order.line',
      'purchase.order',
    ]);
  });

  it('a column no field shows, in a filter or the order: every field counts (watched rather than missed)', () => {
    expect([...modelsShown(FLEET_VEHICLES, { fields: field(FLEET_VEHICLES, 'plate'), order: 'some_column asc' })].sort()).toEqual(every(FLEET_VEHICLES));
  });

  it('expanded records: the related model and the comodels their fields show', () => {
    const lines = PURCHASE_ORDER_LINES;
    expect(
      modelsShown(PURCHASE_ORDERS, {
        fields: field(PURCHASE_ORDERS, 'id'),
        order: 'id asc',
        related: [{ target: lines, fields: [...field(lines, 'id'), ...field(lines, 'product')] }],
      }),
    ).toEqual(['purchase.order', 'purchase.order.line', 'product.product']);
  });
});
