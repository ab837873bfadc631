/**
 * `edge-console node-red-runtime`: one Node-RED runtime in its own process, started by the soft
 * gateway's supervisor (server/modules/node-red/node-red-supervisor.ts), never by hand.
 *
 * Node-RED is loaded from an installed package directory with createRequire, so the single
 * executable needs no system Node.js and the gateway process never loads Node-RED's code. This
 * file imports node built-ins only: tests and development run it directly under Node's type
 * stripping (`node server/cli/node-red-runtime.ts …`).
 *
 * Arguments: `--node-red-dir DIR --user-dir DIR --port N --admin-root /path/ --node-root /path/ --instance-id ID`.
 * Secrets come in the environment, not argv (argv is world-readable in /proc):
 * EDGE_NODE_RED_CREDENTIAL_SECRET encrypts the flows' credentials; EDGE_NODE_RED_PROXY_TOKEN is the
 * header value only the gateway's proxy sends, the one way into the editor and its admin API;
 * EDGE_NODE_RED_PALETTE_SECRET is the instance's credential towards the gateway, which the edge-*
 * palette nodes read from `RED.settings.edgeGateway` (with EDGE_NODE_RED_GATEWAY_URL).
 */
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { join, resolve } from 'node:path';

/** The header the gateway's proxy adds; Node-RED's adminAuth `tokenHeader` (lower case, as Node-RED compares it). */
export const NODE_RED_TOKEN_HEADER = 'x-edge-node-red-token';

interface RuntimeArgs {
  nodeRedDir: string;
  userDir: string;
  port: number;
  adminRoot: string;
  nodeRoot: string;
  instanceId: string;
}

function parseArgs(args: readonly string[]): RuntimeArgs {
  const value = (flag: string): string => {
    const i = args.indexOf(flag);
    const v = i >= 0 ? args[i + 1] : undefined;
    if (!v) throw new Error(`node-red-runtime: ${flag} is required`);
    return v;
  };
  return {
    nodeRedDir: value('--node-red-dir'),
    userDir: value('--user-dir'),
    port: Number(value('--port')),
    adminRoot: value('--admin-root'),
    nodeRoot: value('--node-root'),
    instanceId: value('--instance-id'),
  };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

interface NodeRedApi {
  init(server: unknown, settings: Record<string, unknown>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  httpAdmin: unknown;
  httpNode: unknown;
}

type ExpressApp = ((req: unknown, res: unknown) => void) & { use(path: string, handler: unknown): void };

/** Starts Node-RED and tells the parent (IPC) once the editor answers; exits on SIGTERM after stopping flows. */
export async function nodeRedRuntimeCommand(argv: readonly string[]): Promise<void> {
  const args = parseArgs(argv);
  const credentialSecret = process.env.EDGE_NODE_RED_CREDENTIAL_SECRET ?? '';
  const proxyToken = process.env.EDGE_NODE_RED_PROXY_TOKEN ?? '';
  const paletteSecret = process.env.EDGE_NODE_RED_PALETTE_SECRET ?? '';
  const gatewayUrl = process.env.EDGE_NODE_RED_GATEWAY_URL ?? '';
  if (!credentialSecret || !proxyToken || !paletteSecret || !gatewayUrl) throw new Error('node-red-runtime: secrets missing from the environment');
  // No secret is passed on to what flows may spawn or read (exec nodes, function nodes reading env):
  // gone from the environment before any flow runs. The palette's is kept in the settings only.
  delete process.env.EDGE_NODE_RED_CREDENTIAL_SECRET;
  delete process.env.EDGE_NODE_RED_PROXY_TOKEN;
  delete process.env.EDGE_NODE_RED_PALETTE_SECRET;
  delete process.env.EDGE_NODE_RED_GATEWAY_URL;

  const load = createRequire(join(resolve(args.nodeRedDir), 'package.json'));
  const RED = load('./lib/red.js') as NodeRedApi;
  const express = load('express') as () => ExpressApp;
  const app = express();
  const server = createServer(app);
  RED.init(server, {
    userDir: args.userDir,
    flowFile: 'flows.json',
    credentialSecret,
    uiHost: '127.0.0.1',
    uiPort: args.port,
    httpAdminRoot: args.adminRoot,
    httpNodeRoot: args.nodeRoot,
    // No user can sign in on Node-RED's own form: only a request carrying the proxy's token is an
    // administrator, and nobody is anonymous, so the instance's own port refuses everyone else.
    adminAuth: {
      type: 'credentials',
      users: [],
      tokens: (token: string) => Promise.resolve(sameText(String(token), proxyToken) ? { username: 'edge-admin', permissions: '*' } : null),
      tokenHeader: NODE_RED_TOKEN_HEADER,
    },
    editorTheme: { tours: false, projects: { enabled: false } },
    logging: { console: { level: 'info', metrics: false, audit: false } },
    // The gateway has no internet as a rule: no update checks.
    diagnostics: { enabled: false, ui: false },
    runtimeState: { enabled: false, ui: false },
    telemetry: { enabled: false },
    // Read by the edge-* palette nodes (server/modules/node-red/palette/); not exported to the editor.
    edgeGateway: { url: gatewayUrl, instanceId: args.instanceId, secret: paletteSecret },
  });
  app.use(args.adminRoot, RED.httpAdmin);
  app.use(args.nodeRoot, RED.httpNode);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(args.port, '127.0.0.1', () => resolve());
  });
  await RED.start();
  process.send?.({ type: 'ready' });

  const stop = (): void => {
    // A runtime that does not stop within 5 s is killed by its supervisor anyway.
    RED.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // The gateway went away (its IPC channel closed): an orphan instance must not keep its port.
  process.on('disconnect', stop);
}

// Run directly in development and tests; the binary dispatches here from server/main.ts.
if (process.argv[1]?.endsWith('node-red-runtime.ts')) {
  nodeRedRuntimeCommand(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`node-red-runtime: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}
