/**
 * Starts tests/helpers/socket-gateway-child.ts inside a network namespace and talks HTTP to it over
 * its unix socket: the real server, the real routes, the real NetworkManager of the namespace.
 */
import { once } from 'node:events';
import { request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { root } from '../../scripts/build.ts';
import type { NetworkApplierName } from '../../server/contract/network.ts';
import type { NmNamespace } from './nm-namespace.ts';

export interface SocketResponse {
  statusCode: number;
  body: string;
  json(): unknown;
}

export interface SocketGateway {
  pid: number;
  call(route: { method: string; url: string }, payload?: unknown, headers?: Record<string, string>): Promise<SocketResponse>;
  kill9(): Promise<void>;
}

function call(socketPath: string, route: { method: string; url: string }, payload: unknown, headers: Record<string, string>): Promise<SocketResponse> {
  const body = payload === undefined ? undefined : JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = request(
      { socketPath, method: route.method, path: route.url, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body: text, json: () => JSON.parse(text) as unknown }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `pathPrefix`: directories of stubs (mmcli) the gateway finds first on its PATH. */
export async function startSocketGateway(ns: NmNamespace, opts: { dataDir: string; keyFile: string; applier: NetworkApplierName; pathPrefix?: string }): Promise<SocketGateway> {
  const socketPath = join(opts.dataDir, `gateway-${Date.now()}.sock`);
  const child = ns.spawnInside(
    process.execPath,
    ['--import', 'tsx', '--import', join(root, 'tests/helpers/sql-text-loader.mjs'), join(root, 'tests/helpers/socket-gateway-child.ts'), opts.dataDir, opts.keyFile, socketPath, opts.applier],
    { cwd: root, pathPrefix: opts.pathPrefix },
  );
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });
  const ready = new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => line === 'listening' && resolve());
    void exited.then(([code]) => reject(new Error(`the gateway exited with ${String(code)} before listening`)));
  });
  await ready;
  return {
    pid: child.pid!,
    call: (route, payload, headers = {}) => call(socketPath, route, payload, headers),
    kill9: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
