/**
 * A plain aedes broker for the bench's reference figure (scripts/lib/bench-telemetry.ts): its own
 * process like the gateway, default in-memory persistence, no authentication, no storage, no
 * subscribers. It prints `{"port":N}` once listening and stops when its stdin closes, so it never
 * outlives the bench.
 */
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Aedes } from 'aedes';

const broker = await Aedes.createBroker();
const server = createServer((socket) => broker.handle(socket));
server.listen(0, '127.0.0.1');
await once(server, 'listening');
process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);

process.stdin.resume();
process.stdin.on('close', () => {
  broker.close(() => server.close(() => process.exit(0)));
  setTimeout(() => process.exit(0), 2000).unref();
});
