/** HTTP for Node-RED instances and their snapshots (server/contract/node-red.ts); the editor proxy is node-red-proxy.ts, the HTTP-in one node-red-http-in.ts. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { nodeRedRoutes } from '../../contract/node-red.ts';
import { nodeRedPaletteRoutes } from '../../contract/node-red-palette.ts';
import { fieldErrorFormatter } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';
import { registerEditorProxy } from './node-red-proxy.ts';
import { registerHttpInProxy } from './node-red-http-in.ts';

const schemaErrorFormatter = fieldErrorFormatter({ name: 'error.field.name', description: 'error.field.description', port: 'error.portRange.port' });

type Scope = Pick<Services, 'nodeRed' | 'nodeRedSnapshots' | 'nodeRedTickets' | 'nodeRedPalette'>;

export async function registerNodeRedRoutes(fastify: FastifyInstance, { nodeRed, nodeRedSnapshots, nodeRedTickets, nodeRedPalette }: Scope): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const r = nodeRedRoutes;
  app.route({ ...r.list, handler: async (request) => nodeRed.page(request.query) });
  app.route({ ...r.service, handler: async () => nodeRed.service() });
  app.route({ ...r.get, handler: async (request) => nodeRed.get(request.params.id) });
  app.route({ ...r.create, schemaErrorFormatter, handler: async (request) => nodeRed.create(request.body) });
  app.route({ ...r.update, schemaErrorFormatter, handler: async (request) => nodeRed.update(request.body) });
  app.route({ ...r.remove, handler: async (request) => nodeRed.remove(request.body.ids) });
  app.route({ ...r.start, handler: async (request) => nodeRed.start(request.params.id) });
  app.route({ ...r.stop, handler: async (request) => nodeRed.stop(request.params.id) });
  app.route({ ...r.restart, handler: async (request) => nodeRed.restart(request.params.id) });
  app.route({ ...r.log, handler: async (request) => nodeRed.log(request.params.id) });
  app.route({ ...r.ticket, handler: async (request) => nodeRed.ticket(request.params.id) });
  app.route({ ...r.snapshots, handler: async (request) => nodeRedSnapshots.page(request.params.id, request.query) });
  app.route({ ...r.takeSnapshot, handler: async (request) => nodeRedSnapshots.take(request.params.id, request.body.note ?? '', 'MANUAL') });
  app.route({ ...r.flows, handler: async (request) => nodeRedSnapshots.current(request.params.id) });
  app.route({ ...r.snapshot, handler: async (request) => nodeRedSnapshots.get(request.params.id, request.params.snapshotId) });
  app.route({ ...r.rollback, handler: async (request) => nodeRedSnapshots.rollback(request.params.id, request.params.snapshotId) });
  const p = nodeRedPaletteRoutes;
  app.route({ ...p.telemetry, handler: async (request) => nodeRedPalette.telemetry(request.body) });
  app.route({ ...p.command, handler: async (request) => nodeRedPalette.command(request.nodeRedInstance!, request.body) });
  app.route({ ...p.alarm, handler: async (request) => nodeRedPalette.alarm(request.nodeRedInstance!, request.body) });
  app.route({ ...p.tcp, handler: async (request) => nodeRedPalette.tcpWrite(request.body) });
  await registerEditorProxy(fastify, { instances: nodeRed, snapshots: nodeRedSnapshots, tickets: nodeRedTickets });
  await registerHttpInProxy(fastify, nodeRed);
}
