/**
 * firmware-pack/pack.sh over a small stand-in binary (the SEA build takes minutes): the layout of
 * the .deb as dpkg-deb unpacks it into a scratch root, and of the .ipk as opkg reads it.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/build.ts';
import { tempDir } from '../helpers/app.ts';

const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

function pack(arch: 'x64' | 'arm64'): string {
  const dir = tempDir('edge-pack-');
  const bin = join(dir, 'stand-in');
  writeFileSync(bin, '#!/bin/sh\necho stand-in gateway\n');
  chmodSync(bin, 0o755);
  const out = join(dir, 'out');
  execFileSync('bash', [join(root, 'firmware-pack/pack.sh'), arch, '--binary', bin, '--out', out], { cwd: root, stdio: 'pipe' });
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
});
