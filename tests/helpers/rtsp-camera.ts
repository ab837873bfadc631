/**
 * A real RTSP camera for tests: tests/helpers/rtsp-camera.py (Debian's GStreamer RTSP server) on a
 * free loopback port, with digest auth and a password holding the characters cameras allow and URLs
 * do not (`#`, `@`, `:`). Its stdin is a pipe: when the test process dies, the camera ends too.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from './modbus.ts';

const script = fileURLToPath(new URL('./rtsp-camera.py', import.meta.url));
/** Debian's interpreter: python3-gi and the GStreamer bindings are installed for it. */
const PYTHON = '/usr/bin/python3';

export const CAMERA_USER = 'admin';
export const CAMERA_PASSWORD = 'p#ss@w:rd/1';

export interface RtspCamera {
  port: number;
  stop(): Promise<void>;
}

const running = new Set<ChildProcessWithoutNullStreams>();

/** Starts a camera (640×360 at 15 fps unless told); it answers RTSP once this resolves. */
export async function startCamera(picture: { width: number; height: number; fps: number } | null = null): Promise<RtspCamera> {
  const port = await freePort();
  const size = picture ? [`${picture.width}x${picture.height}`, String(picture.fps)] : [];
  const child = spawn(PYTHON, [script, String(port), CAMERA_USER, CAMERA_PASSWORD, ...size]);
  running.add(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('READY')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`rtsp-camera.py exited ${code}: ${stderr}`)));
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
    running.delete(child);
  };
  return { port, stop };
}

/** Ends every camera still running (after each test file). */
export async function stopAllCameras(): Promise<void> {
  await Promise.all([...running].map((child) => new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(null);
    child.once('exit', resolve);
    child.kill();
  })));
  running.clear();
}

/** The ffmpeg processes reading from the camera on `port` (any channel of it). */
export function ffmpegsReading(port: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(join('/proc', entry, 'cmdline'), 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    if (args[0]?.endsWith('ffmpeg') && args.some((a) => a.includes(`127.0.0.1:${port}/`))) pids.push(Number(entry));
  }
  return pids;
}
