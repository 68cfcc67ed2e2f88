/**
 * A TCP port free right now on the loopback interface, for a server a test or a bench starts in
 * another process. Chosen below the kernel's ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`,
 * 32768 to 60999 here), not by `listen(0)`: a port the kernel picks for a probe is in that range, where
 * every outgoing connection also takes its local port, so between the probe's close and the server's
 * bind a client's connection can take it (seen: `EADDRINUSE` for a gateway's metrics port in
 * `make bench-smoke` while another suite opened thousands of short connections to an ERP that closes
 * each one). Below the range only listeners compete, and the pick is random among thousands.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The lowest port of the range searched; the highest is just below the ephemeral range. */
const LOWEST = 20_000;

function ephemeralStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > LOWEST + 1000 ? start : 32_768;
  } catch {
    return 32_768;
  }
}

const HIGHEST = ephemeralStart() - 1;

/** Whether a server can listen on `port` of the loopback interface right now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${HIGHEST} after 100 tries`);
}
