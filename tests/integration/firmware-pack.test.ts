/**
 * firmware-pack/pack.sh over a small stand-in binary (the SEA build takes minutes): the layout of
 * the .deb as dpkg-deb unpacks it into a scratch root, and of the .ipk as opkg reads it; the
 * optional Node-RED package is unpacked and its runtime started from the scratch root alone.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/build.ts';
import { tempDir } from '../helpers/app.ts';
import { freePort } from '../helpers/binary.ts';

const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

function pack(arch: 'x64' | 'arm64', ...options: string[]): string {
  const dir = tempDir('edge-pack-');
  const bin = join(dir, 'stand-in');
  writeFileSync(bin, '#!/bin/sh\necho stand-in gateway\n');
  chmodSync(bin, 0o755);
  const out = join(dir, 'out');
  execFileSync('bash', [join(root, 'firmware-pack/pack.sh'), arch, '--binary', bin, '--out', out, ...options], { cwd: root, stdio: 'pipe' });
  return out;
}

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8' });

describe('firmware-pack', () => {
  it('writes a .deb that unpacks the binary, the notify unit with its user drop-in and the settings, with maintainer scripts', () => {
    const out = pack('x64');
    const deb = join(out, `edge-console_${version}_amd64.deb`);
    expect(run('dpkg-deb', ['-f', deb, 'Package', 'Version', 'Architecture'])).toBe(`Package: edge-console\nVersion: ${version}\nArchitecture: amd64\n`);
    const scratch = tempDir('edge-deb-root-');
    run('dpkg-deb', ['-x', deb, scratch]);
    expect(readFileSync(join(scratch, 'usr/bin/edge-console'), 'utf8')).toContain('stand-in gateway');
    expect(statSync(join(scratch, 'usr/bin/edge-console')).mode & 0o777).toBe(0o755);
    const unit = readFileSync(join(scratch, 'lib/systemd/system/edge-console.service'), 'utf8');
    expect(unit).toMatch(/^Type=notify$/m);
    expect(unit).toMatch(/^NotifyAccess=all$/m);
    expect(unit).toMatch(/^WatchdogSec=\d+$/m);
    expect(readFileSync(join(scratch, 'lib/systemd/system/edge-console.service.d/user.conf'), 'utf8')).toMatch(/^User=edge-console$/m);
    expect(readFileSync(join(scratch, 'etc/default/edge-console'), 'utf8')).toContain('EDGE_FIRMWARE_PUBLIC_KEY');
    // Owned by root whoever built it (--root-owner-group).
    expect(run('dpkg-deb', ['--contents', deb]).split('\n').filter(Boolean).every((line) => line.includes(' root/root '))).toBe(true);
    const control = tempDir('edge-deb-control-');
    run('dpkg-deb', ['-e', deb, control]);
    expect(readFileSync(join(control, 'postinst'), 'utf8')).toMatch(/adduser --system[^\n]*edge-console[\s\S]*systemctl enable edge-console\.service/);
    expect(readFileSync(join(control, 'conffiles'), 'utf8').trim()).toBe('/etc/default/edge-console');
  });

  it('writes an .ipk as ipkg-build does: a gzipped tar of debian-binary, control and data archives, with a procd init script', () => {
    const out = pack('arm64');
    const ipk = join(out, `edge-console_${version}_aarch64_generic.ipk`);
    expect(run('tar', ['-tzf', ipk]).trim().split('\n')).toEqual(['./debian-binary', './control.tar.gz', './data.tar.gz']);
    expect(run('tar', ['-xzOf', ipk, './debian-binary'])).toBe('2.0\n');
    const scratch = tempDir('edge-ipk-');
    run('tar', ['-xzf', ipk, '-C', scratch]);
    expect(run('tar', ['-xzOf', join(scratch, 'control.tar.gz'), './control'])).toContain('Architecture: aarch64_generic');
    expect(run('tar', ['-tzf', join(scratch, 'control.tar.gz')])).toContain('./postinst');
    const data = tempDir('edge-ipk-data-');
    run('tar', ['-xzf', join(scratch, 'data.tar.gz'), '-C', data]);
    expect(readFileSync(join(data, 'usr/bin/edge-console'), 'utf8')).toContain('stand-in gateway');
    const init = readFileSync(join(data, 'etc/init.d/edge-console'), 'utf8');
    expect(init).toMatch(/^#!\/bin\/sh \/etc\/rc\.common$/m);
    expect(init).toMatch(/^USE_PROCD=1$/m);
    expect(statSync(join(data, 'etc/init.d/edge-console')).mode & 0o111).not.toBe(0);
  });

  it('still writes the overlay tarball with its checksums', () => {
    const out = pack('x64');
    const tarball = join(out, `edge-console-${version}-x64.tar.gz`);
    expect(run('tar', ['-tzf', tarball])).toContain('usr/bin/edge-console');
    expect(execFileSync('sha256sum', ['-c', `${tarball}.sha256`], { cwd: out, encoding: 'utf8' })).toContain('OK');
  });

  it('writes the optional Node-RED package, whose runtime starts from the unpacked root with every core node', { timeout: 120_000 }, async () => {
    const out = pack('x64', '--node-red');
    const nrVersion = (JSON.parse(readFileSync(join(root, 'node_modules/node-red/package.json'), 'utf8')) as { version: string }).version;
    const deb = join(out, `edge-console-node-red_${nrVersion}_all.deb`);
    expect(run('dpkg-deb', ['-f', deb, 'Package', 'Architecture', 'Depends'])).toBe(`Package: edge-console-node-red\nArchitecture: all\nDepends: edge-console (>= ${version})\n`);
    expect(run('tar', ['-tzf', join(out, `edge-console-node-red-${nrVersion}.tar.gz`)])).toContain('usr/lib/edge-console/node-red/package.json');
    // Unpacked outside the project, so nothing resolves from its node_modules: the package holds all it needs.
    const scratch = tempDir('edge-nr-root-');
    run('dpkg-deb', ['-x', deb, scratch]);
    const nodeRedDir = join(scratch, 'usr/lib/edge-console/node-red');
    expect(existsSync(join(nodeRedDir, 'node_modules/@node-red/runtime/package.json'))).toBe(true);
    const port = await freePort();
    const token = 'pack-test-token';
    const child = spawn(process.execPath, [join(root, 'server/cli/node-red-runtime.ts'), '--node-red-dir', nodeRedDir, '--user-dir', tempDir('edge-nr-user-'), '--port', String(port), '--admin-root', '/admin/', '--node-root', '/http/', '--instance-id', 'pack-test'], {
      env: { ...process.env, EDGE_NODE_RED_CREDENTIAL_SECRET: 'pack-test-secret', EDGE_NODE_RED_PROXY_TOKEN: token, EDGE_NODE_RED_PALETTE_SECRET: 'pack-test-palette', EDGE_NODE_RED_GATEWAY_URL: 'http://127.0.0.1:1' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      cwd: scratch,
    });
    let log = '';
    child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        child.on('message', (msg: { type?: string }) => msg?.type === 'ready' && resolve());
        child.once('exit', (code) => reject(new Error(`node-red-runtime exited ${code}: ${log}`)));
      });
      const res = await fetch(`http://127.0.0.1:${port}/admin/nodes`, { headers: { accept: 'application/json', 'x-edge-node-red-token': token } });
      expect(res.status).toBe(200);
      const sets = (await res.json()) as { module: string; types: string[]; err?: string }[];
      const core = sets.filter((set) => set.module === 'node-red');
      expect(core.flatMap((set) => set.types)).toEqual(expect.arrayContaining(['inject', 'debug', 'function', 'mqtt in', 'http in']));
      expect(core.filter((set) => set.err)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
