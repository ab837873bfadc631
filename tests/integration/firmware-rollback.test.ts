/**
 * Applying firmware on a running gateway process: the source server (tests/helpers/source-server.ts)
 * plays the installed binary, and the packages hold small stand-ins (a script that exits at once,
 * one that never reports ready, and the source server again as a healthy new version). What is not
 * exercised here is the SEA binary as the package content: it runs the same main.ts.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { FirmwareList } from '../../server/contract/firmware.ts';
import { tempDir } from '../helpers/app.ts';
import { httpStatus } from '../helpers/binary.ts';
import { startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { firmwareKeys, signedPackage } from '../helpers/firmware.ts';
import { sourceServer } from '../helpers/source-server.ts';

const WAIT = { timeout: 90_000, interval: 250 } as const;
const running: E2eGateway[] = [];
afterEach(async (ctx) => {
  // What the gateways printed tells why a failed step's state never showed.
  if (ctx.task.result?.state === 'fail') for (const gw of running) console.log(gw.output());
  for (const gw of running.splice(0)) await gw.kill();
});

async function gateway(flags: string[], dataDir?: string): Promise<E2eGateway & { token: string }> {
  const dir = tempDir('edge-fw-bin-');
  const gw = await startE2eGateway({ binary: sourceServer(dir), dataDir, args: ['--firmware-public-key', firmwareKeys().publicKeyFile, ...flags], timeoutMs: 90_000 });
  running.push(gw);
  await gw.provision();
  return { ...gw, token: (await gw.login()).token };
}

async function call<T>(gw: E2eGateway & { token: string }, method: string, path: string, body?: FormData | object): Promise<{ status: number; json: T }> {
  const form = body instanceof FormData;
  const res = await fetch(`${gw.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${gw.token}`, ...(body && !form ? { 'content-type': 'application/json' } : {}) },
    body: form ? body : body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as T };
}

/** Uploads and applies `content` signed as `version`; resolves once the apply was accepted. */
async function applyPackage(gw: E2eGateway & { token: string }, content: Buffer, version: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(signedPackage(content, { version }))]), 'edge.fw');
  const uploaded = await call<{ id: string }>(gw, 'POST', '/api/yt/firmware/upload', form);
  expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(200);
  const applied = await call(gw, 'POST', `/api/yt/firmware/${uploaded.json.id}/apply`, {});
  expect(applied.status, JSON.stringify(applied.json)).toBe(202);
  return uploaded.json.id;
}

/** The firmware list once the gateway answers again, or null while it restarts. */
async function firmwareList(gw: E2eGateway & { token: string }): Promise<FirmwareList | null> {
  try {
    const res = await call<FirmwareList>(gw, 'GET', '/api/yt/firmware');
    return res.status === 200 ? res.json : null;
  } catch {
    return null;
  }
}

const script = (body: string) => Buffer.from(`#!/bin/sh\n${body}\n`);

describe('applying firmware', () => {
  it('rolls back a binary that exits at start after 3 starts, and one that never reports ready after the ready timeout', async () => {
    const gw = await gateway(['--firmware-ready-timeout-ms', '5000', '--firmware-health-window-ms', '1000']);
    await applyPackage(gw, script('echo "stand-in binary crashing" >&2; exit 3'), '9.0.0');
    await expect.poll(async () => (await firmwareList(gw))?.lastOutcome, WAIT).toMatchObject({ result: 'rolledBack', version: '9.0.0', reason: 'crashed' });
    expect(gw.output().match(/stand-in binary crashing/g)).toHaveLength(3);
    expect((await firmwareList(gw))!).toMatchObject({ phase: 'good', packages: [expect.objectContaining({ version: '9.0.0', status: 'rolledBack' })] });

    await applyPackage(gw, script('echo "stand-in binary hanging" >&2; exec sleep 600'), '9.0.1');
    await expect.poll(async () => (await firmwareList(gw))?.lastOutcome, WAIT).toMatchObject({ result: 'rolledBack', version: '9.0.1', reason: 'notReady' });
    expect(gw.output().match(/stand-in binary hanging/g)).toHaveLength(1);
  }, 240_000);

  it('keeps a new version that reports ready and stays healthy, which a kill -9 of the gateway does not undo', async () => {
    const gw = await gateway(['--firmware-ready-timeout-ms', '120000', '--firmware-health-window-ms', '1500']);
    // The "new version" is the source server again, started through its own launcher script.
    const next = readFileSync(sourceServer(tempDir('edge-fw-next-')));
    const id = await applyPackage(gw, next, '9.1.0');
    await expect.poll(async () => (await firmwareList(gw))?.lastOutcome, WAIT).toMatchObject({ result: 'installed', version: '9.1.0' });
    expect((await firmwareList(gw))!.packages).toEqual([expect.objectContaining({ id, status: 'installed' })]);

    // A power cut: the whole gateway (parent and the child it runs) gone at once, then started again.
    process.kill(gw.pid, 'SIGKILL');
    await expect.poll(() => httpStatus(`${gw.url}/api/health`), WAIT).toBe(0);
    const again = await startE2eGateway({ binary: sourceServer(tempDir('edge-fw-bin-')), dataDir: gw.dataDir, args: ['--firmware-public-key', firmwareKeys().publicKeyFile], timeoutMs: 90_000 });
    running.push(again);
    expect(again.output()).toContain('starting the installed 9.1.0');
  }, 240_000);
});

