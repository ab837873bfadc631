/**
 * Gateway processes for the firmware tests: the source server trusting the test firmware key,
 * and the calls that upload, apply and list packages on it.
 */
import { afterEach } from 'vitest';
import type { FirmwareList } from '../../server/contract/firmware.ts';
import { firmwareKeys, signedPackage } from './firmware-package.ts';
import { tempDir } from './app.ts';
import { startE2eGateway, type E2eGateway } from './e2e-gateway.ts';
import { sourceServer } from './source-server.ts';

/** A gateway process (the source server) trusting the test firmware key, provisioned and signed in. */
export type FirmwareGateway = E2eGateway & { token: string };

/** Starts one; the caller stops it (`kill()`). */
async function firmwareGateway(flags: string[], dataDir?: string): Promise<FirmwareGateway> {
  const gw = await startE2eGateway({ binary: sourceServer(tempDir('edge-fw-bin-')), dataDir, args: ['--firmware-public-key', firmwareKeys().publicKeyFile, ...flags], timeoutMs: 90_000 });
  try {
    await gw.provision();
    return { ...gw, token: (await gw.login()).token };
  } catch (err) {
    await gw.kill();
    throw err;
  }
}

async function call<T>(gw: FirmwareGateway, method: string, path: string, body?: FormData | object): Promise<{ status: number; json: T }> {
  const form = body instanceof FormData;
  const res = await fetch(`${gw.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${gw.token}`, ...(body && !form ? { 'content-type': 'application/json' } : {}) },
    body: form ? body : body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as T };
}

/** Uploads and applies `content` signed as `version`; resolves to the package id once the apply was accepted. */
export async function applyPackage(gw: FirmwareGateway, content: Buffer, version: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(signedPackage(content, { version }))]), 'edge.fw');
  const uploaded = await call<{ id: string }>(gw, 'POST', '/api/yt/firmware/upload', form);
  if (uploaded.status !== 200) throw new Error(`upload answered ${uploaded.status}: ${JSON.stringify(uploaded.json)}`);
  const applied = await call(gw, 'POST', `/api/yt/firmware/${uploaded.json.id}/apply`, {});
  if (applied.status !== 202) throw new Error(`apply answered ${applied.status}: ${JSON.stringify(applied.json)}`);
  return uploaded.json.id;
}

/** The firmware list once the gateway answers again, or null while it restarts. */
export async function firmwareList(gw: FirmwareGateway): Promise<FirmwareList | null> {
  try {
    const res = await call<FirmwareList>(gw, 'GET', '/api/yt/firmware');
    return res.status === 200 ? res.json : null;
  } catch {
    return null;
  }
}

/**
 * Gateways of a test file: `start` one, `track` one started otherwise; all are stopped after each
 * test, and what they printed is shown when the test failed (why a state never showed).
 */
export function firmwareGateways(): { start: (flags: string[]) => Promise<FirmwareGateway>; track: (gw: E2eGateway) => void } {
  const running: E2eGateway[] = [];
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') for (const gw of running) console.log(gw.output());
    for (const gw of running.splice(0)) await gw.kill();
  });
  return {
    start: async (flags) => {
      const gw = await firmwareGateway(flags);
      running.push(gw);
      return gw;
    },
    track: (gw) => running.push(gw),
  };
}
