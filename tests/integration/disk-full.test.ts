/**
 * A disk that really fills up, with the gateway as its own process and its log on the same disk:
 * customers cannot fill it through uploads, a full disk answers 507 (never 500), never stops the
 * ports or the process through the log, and the log says how many lines it dropped once it can
 * write again.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { authRoutes, type TokenPair } from '../../server/contract/auth.ts';
import { ossRoutes } from '../../server/contract/oss.ts';
import { userAdminRoutes } from '../../server/contract/user-admin.ts';
import { tempDir } from '../helpers/app.ts';
import { httpStatus } from '../helpers/binary.ts';
import { startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { ROLE_PASSWORD } from '../helpers/roles.ts';
import { smallDisk, type SmallDisk } from '../helpers/small-disk.ts';
import { sourceServer } from '../helpers/source-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

const MB = 1024 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let gateway: E2eGateway | null = null;
let disk: SmallDisk | null = null;
afterEach(async () => {
  await gateway?.kill();
  disk?.release();
  gateway = null;
  disk = null;
});

/** A distinct 1 MB "image": the PNG signature, then filler. */
function image(n: number): Buffer {
  return Buffer.concat([PNG_SIGNATURE, Buffer.alloc(MB - PNG_SIGNATURE.length, n)]);
}

async function call(g: E2eGateway, method: string, url: string, token: string | null, body?: object | FormData): Promise<Response> {
  const json = body !== undefined && !(body instanceof FormData);
  return fetch(`${g.url}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(body) : (body as FormData | undefined),
  });
}

function uploadImage(g: E2eGateway, token: string, n: number): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(image(n))]), `photo-${n}.png`);
  return call(g, ossRoutes.upload.method, ossRoutes.upload.url, token, form);
}

async function customer(g: E2eGateway, admin: string, n: number): Promise<string> {
  const username = `customer${n}`;
  const created = await call(g, userAdminRoutes.create.method, userAdminRoutes.create.url, admin, {
    username, realName: username, role: 'CUSTOMER_USER', organizationIds: [], enabled: true, password: ROLE_PASSWORD,
  });
  expect(created.status, await created.clone().text()).toBe(200);
  const signedIn = await call(g, authRoutes.login.method, authRoutes.login.url, null, { username, password: ROLE_PASSWORD });
  return ((await signedIn.json()) as TokenPair).token;
}

/** Writes a file until the disk refuses more, as another program on the gateway might. */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a gateway on a small disk with its log on the same disk', () => {
  it('refuses customers filling it with 507, keeps answering while the disk is full, and logs how many lines it dropped once it can write again', { timeout: 240_000 }, async () => {
    // 10 MB: the telemetry staging ring takes 2 MB of it at first start.
    disk = smallDisk('10m');
    const logFile = join(disk.dir, 'console.log');
    gateway = await startE2eGateway({
      binary: sourceServer(tempDir('edge-disk-bin-')),
      dataDir: join(disk.dir, 'data'),
      // debug: every answered request writes a line, so the log meets the full disk at once.
      args: ['--log-level', 'debug', '--min-free-disk-mb', '3'],
      prefix: disk.wrap(logFile),
      outside: disk.outside,
      timeoutMs: 60_000,
    });
    const g = gateway;
    const outside = (path: string): string => disk!.outside(g.pid, path);
    await g.provision();
    const admin = (await g.login()).token;

    // One customer's six 1 MB images: each replaces the one before, so they hold 1 MB, not 6.
    const first = await customer(g, admin, 0);
    for (let n = 1; n <= 6; n++) expect((await uploadImage(g, first, n)).status).toBe(200);

    // More customers reach the floor (--min-free-disk-mb): refused with the disk-full 507.
    let refused: Response | null = null;
    for (let c = 1; c <= 8 && !refused; c++) {
      const res = await uploadImage(g, await customer(g, admin, c), 10 + c);
      if (res.status !== 200) refused = res;
    }
    expect(refused?.status).toBe(507);
    expect(await refused!.json()).toMatchObject({ code: 41, key: 'error.diskFull' });

    // Something else fills the disk to the last byte: the log cannot be written either.
    const filler = outside(join(disk.dir, 'filler'));
    fillDisk(filler);
    const adminUpload = await uploadImage(g, admin, 99);
    expect(adminUpload.status).toBe(507);
    const adminWrite = await call(g, userAdminRoutes.create.method, userAdminRoutes.create.url, admin, {
      username: 'late', realName: 'late', role: 'CUSTOMER_USER', organizationIds: [], enabled: true, password: ROLE_PASSWORD,
    });
    expect([200, 507], await adminWrite.clone().text()).toContain(adminWrite.status);
    // More lines than the log file's last, partly written page of the file system can take.
    for (let i = 0; i < 40; i++) {
      await waitFor('/api/health while the disk is full', async () => ((await httpStatus(`${g.url}/api/health`)) === 200 ? true : null));
    }

    rmSync(filler);
    const notice = await waitFor('a line saying how many log lines were dropped', async () => {
      await httpStatus(`${g.url}/api/health`); // a request, hence a line to write
      const line = readFileSync(outside(logFile), 'utf8').split('\n').find((l) => /dropped \d+ log lines/.test(l));
      return line ?? null;
    });
    expect((JSON.parse(notice) as { droppedLines: number }).droppedLines).toBeGreaterThan(0);
    expect(alive(g.pid)).toBe(true);
    expect(await httpStatus(`${g.url}/api/health`)).toBe(200);
  });
});
