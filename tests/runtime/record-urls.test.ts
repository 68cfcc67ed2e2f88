import { recordUrls } from '@ops-data-gateway/gateway/runtime/record-urls';

describe('recordUrls (ERP_URL_TEMPLATE, decision D9)', () => {
  it('fills the default template: public URL, id, then model', () => {
    const url = recordUrls('{erp_public_url}/web#id={id}&model={model}&view_type=form', 'https://erp.example.org');
    expect(url('stock.picking', 42)).toBe('https://erp.example.org/web#id=42&model=stock.picking&view_type=form');
    expect(url('fleet.vehicle', 7)).toBe('https://erp.example.org/web#id=7&model=fleet.vehicle&view_type=form');
    expect(url('stock.picking', 43)).toBe('https://erp.example.org/web#id=43&model=stock.picking&view_type=form');
  });

  it('puts the model before the id when the template does', () => {
    const url = recordUrls('{erp_public_url}/odoo/{model}/{id}', 'http://odoo');
    expect(url('purchase.order', 5)).toBe('http://odoo/odoo/purchase.order/5');
  });

  it('replaces only the first place of each placeholder, as the template rule says', () => {
    const url = recordUrls('{erp_public_url}/r/{id}/{id}?m={model}&n={model}', 'http://x');
    expect(url('res.partner', 9)).toBe('http://x/r/9/{id}?m=res.partner&n={model}');
  });

  it('works without {model}', () => {
    expect(recordUrls('{erp_public_url}/x/{id}', 'http://y')('stock.picking', 1)).toBe('http://y/x/1');
  });
});
