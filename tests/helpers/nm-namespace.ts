/**
 * A real NetworkManager the host never notices: a network namespace of its own (unique name) with
 * one veth pair inside it, a private system-like D-Bus (DBUS_SYSTEM_BUS_ADDRESS points clients at
 * it), and NetworkManager in a private mount and UTS namespace with its own config, state and run
 * directories (keyfile plugin, no automatic profiles, no DNS or host name handling, every device
 * unmanaged except the LAN end of the veth). Two things make it run in a container without udev:
 * /sys is remounted read-only for NetworkManager (it then does not wait for udev to announce
 * devices), and /run is a tmpfs of its own (no host state is read or written).
 * `stop()` tears all of it down; it also runs when the test process exits, so a failing test
 * leaves no namespace behind.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eventually } from './mqtt.ts';

const exec = promisify(execFile);

/** The veth end NetworkManager manages (the gateway's LAN) and its unmanaged peer. */
export const NS_LAN = 'edge-lan0';
const NS_PEER = 'edge-peer0';

export interface NmNamespace {
  name: string;
  dir: string;
  /** What a process talking to this NetworkManager needs in its environment. */
  env: NodeJS.ProcessEnv;
  /** The LAN veth's IPv4 addresses (`a.b.c.d/prefix`), read with `ip -n`. */
  lanAddresses(): Promise<string[]>;
  nmcli(...args: string[]): Promise<string>;
  /** The checkpoints NetworkManager holds (D-Bus object paths). */
  checkpoints(): Promise<string[]>;
  /** Starts a command inside the namespace. */
  spawnInside(command: string, args: readonly string[], opts?: { cwd?: string; pathPrefix?: string }): ChildProcess;
  /** The network namespace a process is in (`ip netns identify`), '' for the host's. */
  namespaceOf(pid: number): Promise<string>;
  stop(): void;
}

const busConfig = (socket: string): string => `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=${socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
  </policy>
</busconfig>
`;

const nmConfig = (connections: string): string => `[main]
plugins=keyfile
no-auto-default=*
dns=none
rc-manager=unmanaged
hostname-mode=none
auth-polkit=false

[keyfile]
path=${connections}
unmanaged-devices=except:interface-name:${NS_LAN}
`;

/** Sets up the namespace, the bus and NetworkManager, and waits until NetworkManager manages the LAN veth. */
export async function startNmNamespace(): Promise<NmNamespace> {
  const name = `edge-nm-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const dir = mkdtempSync(join(tmpdir(), 'edge-nm-'));
  const socket = join(dir, 'system_bus_socket');
  const env: NodeJS.ProcessEnv = { ...process.env, DBUS_SYSTEM_BUS_ADDRESS: `unix:path=${socket}` };
  const children: ChildProcess[] = [];
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stop);
    for (const child of children.reverse()) child.kill('SIGKILL');
    // Deleting the namespace destroys the veth pair with it.
    try {
      execFileSync('ip', ['netns', 'delete', name], { stdio: 'ignore' });
    } catch {
      // not created, or already gone
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', stop);

  try {
    mkdirSync(join(dir, 'connections'));
    mkdirSync(join(dir, 'conf.d'));
    writeFileSync(join(dir, 'bus.conf'), busConfig(socket));
    writeFileSync(join(dir, 'NetworkManager.conf'), nmConfig(join(dir, 'connections')));
    await exec('ip', ['netns', 'add', name]);
    await exec('ip', ['-n', name, 'link', 'set', 'lo', 'up']);
    await exec('ip', ['-n', name, 'link', 'add', NS_LAN, 'type', 'veth', 'peer', 'name', NS_PEER]);
    // The peer up gives the LAN end a carrier, without which NetworkManager activates nothing on it.
    await exec('ip', ['-n', name, 'link', 'set', NS_PEER, 'up']);

    const bus = spawn('dbus-daemon', ['--config-file', join(dir, 'bus.conf'), '--nofork', '--print-address'], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(bus);
    await new Promise<void>((resolve, reject) => {
      bus.once('error', reject);
      bus.once('exit', (code) => reject(new Error(`dbus-daemon exited with ${code}`)));
      bus.stdout.once('data', () => resolve());
    });

    const nmArgs = [
      '--no-daemon', `--config=${join(dir, 'NetworkManager.conf')}`, `--config-dir=${join(dir, 'conf.d')}`,
      `--system-config-dir=${join(dir, 'conf.d')}`, `--intern-config=${join(dir, 'intern.conf')}`,
      `--state-file=${join(dir, 'NetworkManager.state')}`, `--pid-file=${join(dir, 'NetworkManager.pid')}`,
    ].map((a) => `'${a}'`).join(' ');
    const script = `mount -t tmpfs tmpfs /run && mount -t tmpfs tmpfs /var/lib/NetworkManager && mount -o remount,ro /sys && exec NetworkManager ${nmArgs}`;
    // ip netns exec, unshare and sh all exec the next: the child's pid ends up NetworkManager's.
    const nm = spawn('ip', ['netns', 'exec', name, 'unshare', '--mount', '--uts', 'sh', '-c', script], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(nm);
    let nmErrors = '';
    nm.stderr.on('data', (chunk: Buffer) => (nmErrors += chunk.toString()));
    nm.once('exit', (code) => {
      if (!stopped) nmErrors += `\nNetworkManager exited with ${code}`;
    });

    const nmcli = async (...args: string[]): Promise<string> => (await exec('nmcli', args, { env })).stdout;
    await eventually(
      () => nmcli('-t', '-f', 'DEVICE,STATE', 'device').catch((err: Error) => `${err.message}${nmErrors}`),
      (out) => out.includes(`${NS_LAN}:disconnected`) || out.includes(`${NS_LAN}:connected`),
      60_000,
    );

    return {
      name,
      dir,
      env,
      nmcli,
      lanAddresses: async () => {
        const out = (await exec('ip', ['-n', name, '-j', '-4', 'addr', 'show', 'dev', NS_LAN])).stdout;
        const links = JSON.parse(out) as { addr_info: { local: string; prefixlen: number }[] }[];
        return links.flatMap((l) => l.addr_info.map((a) => `${a.local}/${a.prefixlen}`));
      },
      checkpoints: async () => {
        const out = (await exec('busctl', ['--json=short', 'get-property', 'org.freedesktop.NetworkManager', '/org/freedesktop/NetworkManager', 'org.freedesktop.NetworkManager', 'Checkpoints'], { env })).stdout;
        return (JSON.parse(out) as { data: string[] }).data;
      },
      spawnInside: (command, args, opts = {}) => {
        const path = opts.pathPrefix ? `${opts.pathPrefix}:${env.PATH ?? ''}` : env.PATH;
        const child = spawn('ip', ['netns', 'exec', name, command, ...args], { env: { ...env, PATH: path }, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'inherit'] });
        children.push(child);
        return child;
      },
      namespaceOf: async (pid) => (await exec('ip', ['netns', 'identify', String(pid)])).stdout.trim(),
      stop,
    };
  } catch (err) {
    stop();
    throw err;
  }
}
