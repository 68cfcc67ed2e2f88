/**
 * The sandbox's HTTP server itself: body cap, unknown paths, keep-alive, concurrency, broken
 * clients. None of these may crash or hang the server.
 */
import { request as httpRequest, Agent } from 'node:http';
import { connect } from 'node:net';
import { jsonrpc, startTestSandbox, type TestSandbox } from './http-helpers';

describe('sandbox HTTP server', () => {
  let sandbox: TestSandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox(19, { maxBodyBytes: 64 * 1024 });
  });
  afterAll(() => sandbox.close());

  it('answers 404 HTML for unknown paths', async () => {
    for (const path of ['/', '/web/login', '/xmlrpc/2/common/extra', '/jsonrpc/']) {
      const res = await fetch(`${sandbox.url}${path}`, { method: 'POST' });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toContain('<title>404 Not Found</title>');
    }
  });

  it('refuses a declared oversized body with 413 without reading it', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${sandbox.url}/jsonrpc`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': String(10 * 1024 * 1024) } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{');
    });
    expect(status).toBe(413);
  });

  it('refuses a streamed oversized body with 413', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${sandbox.url}/xmlrpc/2/common`, { method: 'POST', headers: { 'Content-Type': 'text/xml', 'Transfer-Encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', () => undefined); // the server may close while we still write
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      let sent = 0;
      const pump = (): void => {
        while (sent < 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
        req.end();
      };
      pump();
      setTimeout(() => reject(new Error('no answer')), 5000).unref();
    });
    expect(status).toBe(413);
    expect((await jsonrpc(sandbox.url, 'common', 'version', [])).result).toBeDefined();
  });

  it('keeps connections alive and serves concurrent requests', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const sockets = new Set<unknown>();
    const call = () =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, params: { service: 'common', method: 'version', args: [] } });
        const req = httpRequest(`${sandbox.url}/jsonrpc`, { method: 'POST', agent, headers: { 'Content-Type': 'application/json' } }, (res) => {
          sockets.add(res.socket);
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(body);
      });
    const statuses = await Promise.all(Array.from({ length: 40 }, call));
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(sockets.size).toBeLessThanOrEqual(4);
    agent.destroy();
  });

  it('survives a client that disconnects mid-body, and raw garbage', async () => {
    await new Promise<void>((resolve) => {
      const socket = connect(Number(new URL(sandbox.url).port), '127.0.0.1', () => {
        socket.write('POST /jsonrpc HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc"');
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
    });
    const garbage = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(sandbox.url).port), '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (data) => (text += data.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    expect(garbage).toMatch(/^HTTP\/1\.1 400/);
    expect((await jsonrpc(sandbox.url, 'common', 'version', [])).result).toBeDefined();
    expect(sandbox.errors).toEqual([]);
  });

  it('answers HEAD without a body', async () => {
    const res = await fetch(`${sandbox.url}/web/version`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});
