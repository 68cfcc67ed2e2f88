/**
 * The gateway can only call read methods on the ERP: anything else is refused before it reaches the
 * wire, whatever a route asks (the end-to-end and hostile-input suites also check what the sandbox
 * receives).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALLOWED_METHODS, ErpClient, ErpStats } from '@ops-data-gateway/gateway/runtime/erp/erp-client';
import { loadConfig } from '@ops-data-gateway/gateway/runtime/config';

describe('the ERP method allow-list', () => {
  let server: Server;
  let requests = 0;
  let client: ErpClient;

  beforeAll(async () => {
    // An ERP stand-in that counts what reaches it: nothing refused may arrive here.
    server = createServer((req, res) => {
      requests++;
      res.setHeader('content-type', 'application/json');
      res.end(req.url === '/web/version' ? '{"version":"19.0","version_info":[19,0,0,"final",0,""]}' : '[]');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const config = loadConfig({ ERP_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, ERP_DATABASE: 'x' });
    client = new ErpClient(config.erp);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('holds read methods and identity/permission probes only', () => {
    expect([...ALLOWED_METHODS].sort()).toEqual([
      'check_access_rights',
      'context_get',
      'fields_get',
      'formatted_read_group',
      'has_access',
      'has_group',
      'read',
      'read_group',
      'search_count',
      'search_read',
      'web_search_read',
    ]);
  });

  it.each(['write', 'create', 'unlink', 'copy', 'action_confirm', 'button_approve', 'name_create', 'execute', '_read_group'])(
    'refuses %s before anything is sent',
    async (method) => {
      const before = requests;
      await expect(client.call({ uid: 1, key: 'k' }, { model: 'fleet.vehicle', method, ids: [1], kwargs: {} }, new ErpStats())).rejects.toThrow(/allow-list/);
      expect(requests).toBe(before);
    },
  );

  it('lets a read method through to the wire', async () => {
    const before = requests;
    await client.call({ uid: 1, key: 'k' }, { model: 'fleet.vehicle', method: 'search_read', ids: null, kwargs: { domain: [] } }, new ErpStats());
    expect(requests).toBeGreaterThan(before);
  });
});
