/**
 * What the kernel knows of loopback TCP connections (Linux's /proc/net/tcp and tcp6), for tests that
 * must wait until the gateway has closed a connection whose client is not reading: such a client
 * cannot see the close until it reads, and reading would be progress.
 */
import { readFileSync } from 'node:fs';

/** The state Linux writes for an established connection (include/net/tcp_states.h: TCP_ESTABLISHED = 1). */
const ESTABLISHED = '01';

interface TcpEntry {
  readonly localPort: number;
  readonly remotePort: number;
  /** Linux's state code, two hex digits. */
  readonly state: string;
  /** Bytes the kernel holds that the socket's owner has not read yet. */
  readonly receiveQueue: number;
}

function entries(): TcpEntry[] {
  const found: TcpEntry[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, remote, state, queues] = line.trim().split(/\s+/);
      if (!local || !remote || !state || !queues) continue;
      const port = (address: string) => Number.parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
      found.push({ localPort: port(local), remotePort: port(remote), state, receiveQueue: Number.parseInt(queues.split(':')[1] ?? '0', 16) });
    }
  }
  return found;
}

/** How many of the server's ends of connections from `clientPorts` to `serverPort` are still established. */
export function establishedFrom(serverPort: number, clientPorts: readonly number[]): number {
  const clients = new Set(clientPorts);
  return entries().filter((entry) => entry.state === ESTABLISHED && entry.localPort === serverPort && clients.has(entry.remotePort)).length;
}

/** Bytes that arrived for the client socket on `clientPort` and that it has not read (0 when there is no such socket). */
export function unreadBy(clientPort: number, serverPort: number): number {
  return entries().find((entry) => entry.localPort === clientPort && entry.remotePort === serverPort)?.receiveQueue ?? 0;
}
