// A bare node:cluster on a free port whose workers are retired one after the other while clients
// open a connection per request: what runtime/server/leave-cluster.ts is for, without the rest of the
// gateway around it. Prints one JSON line: answered, never answered (client timeout), failed.
// LEAVE=exit: workers exit as soon as their server closes (the behaviour leave-cluster.ts replaces).
const cluster = require('node:cluster');
const http = require('node:http');
const { join } = require('node:path');

const leave = require(join(__dirname, '..', '..', '..', 'packages', 'gateway', 'dist', 'runtime', 'server', 'leave-cluster.js'));
const PORT = Number(process.env.PORT);
const RETIREMENTS = Number(process.env.RETIREMENTS || 30);
const CLIENTS = 8;
const NO_ANSWER_MS = 5000;

if (cluster.isPrimary) {
  cluster.schedulingPolicy = cluster.SCHED_RR;
  leave.answerWorkersLeaving();
  const tally = { answered: 0, neverAnswered: 0, failed: [] };
  const start = () => new Promise((resolve) => {
    const worker = cluster.fork();
    worker.once('listening', () => resolve(worker));
  });
  const ask = () => new Promise((resolve) => {
    let settled = false;
    const settle = (count) => { if (!settled) { settled = true; count(); resolve(); } };
    const request = http.get({ port: PORT, host: '127.0.0.1', agent: false }, (response) => {
      response.resume();
      response.on('end', () => settle(() => tally.answered++));
    });
    request.setTimeout(NO_ANSWER_MS, () => { settle(() => tally.neverAnswered++); request.destroy(); });
    request.on('error', (error) => settle(() => tally.failed.push(String(error.code || error))));
  });
  (async () => {
    let serving = await start();
    let running = true;
    const clients = Array.from({ length: CLIENTS }, async () => { while (running) await ask(); });
    for (let i = 0; i < RETIREMENTS; i++) {
      const next = await start();
      const old = serving;
      serving = next;
      await new Promise((resolve) => { old.once('exit', resolve); old.send('retire'); });
    }
    running = false;
    await Promise.all(clients);
    process.stdout.write(`${JSON.stringify(tally)}\n`);
    process.exit(0);
  })();
} else {
  const server = http.createServer((_request, response) => response.end('answered')).listen(PORT, '127.0.0.1');
  process.on('message', (message) => {
    if (message !== 'retire') return;
    server.close(async () => {
      if (process.env.LEAVE === 'exit') process.exit(0);
      await leave.leaveRoundRobin();
      leave.exitAfterLastMessage(0);
    });
    server.closeIdleConnections();
  });
}
