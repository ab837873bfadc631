/**
 * Debian's ffmpeg and ffprobe, found in `--ffmpeg-dir` or else on PATH, run as child processes that
 * never outlive their deadline: a probe or a thumbnail is killed when it overruns, and every child
 * still running when the module closes is killed then.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { VideoOfflineReason, VideoProbeResult } from '../../contract/video.ts';

/** ffprobe's own socket timeout; the kill deadline is a little later, for a camera that answers too slowly. */
const RTSP_TIMEOUT_MS = 5_000;
const PROBE_DEADLINE_MS = 8_000;
const THUMBNAIL_DEADLINE_MS = 12_000;
/** Enough for ffprobe's JSON of a few streams or one JPEG frame; a child writing more is cut off. */
const OUTPUT_MAX_BYTES = 4 * 1024 * 1024;

/** The executable's path, or null when it is not there. */
export function findTool(name: 'ffmpeg' | 'ffprobe', dir: string | null): string | null {
  const dirs = dir ? [dir] : (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const d of dirs) {
    const candidate = join(d, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

/** The RTSP input options both tools take: TCP (no UDP ports through a NAT or firewall) and a socket timeout. */
export function rtspInput(url: string): string[] {
  return ['-rtsp_transport', 'tcp', '-timeout', String(RTSP_TIMEOUT_MS * 1000), '-i', url];
}

interface RunResult {
  stdout: Buffer;
  stderr: string;
  code: number | null;
  timedOut: boolean;
}

export class FfmpegTools {
  private readonly children = new Set<ChildProcess>();

  constructor(private readonly paths: { ffmpeg: string | null; ffprobe: string | null }) {}

  get available(): boolean {
    return this.paths.ffmpeg !== null && this.paths.ffprobe !== null;
  }

  get ffmpegPath(): string | null {
    return this.paths.ffmpeg;
  }

  /** Codec and size of the first video stream, or why there is none. */
  async probe(url: string): Promise<VideoProbeResult> {
    if (!this.paths.ffprobe) return { status: 'OFFLINE', reason: 'FFMPEG_MISSING' };
    const args = ['-v', 'error', ...rtspInput(url), '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height', '-of', 'json'];
    // ffprobe takes the input as a plain argument, not after -i.
    const result = await this.run(this.paths.ffprobe, args.filter((a) => a !== '-i'), PROBE_DEADLINE_MS);
    if (result.timedOut) return { status: 'OFFLINE', reason: 'TIMEOUT' };
    if (result.code !== 0) return { status: 'OFFLINE', reason: reasonOf(result.stderr) };
    const stream = (JSON.parse(result.stdout.toString('utf8') || '{}') as { streams?: { codec_name?: string; width?: number; height?: number }[] }).streams?.[0];
    if (!stream?.codec_name) return { status: 'OFFLINE', reason: 'NO_VIDEO' };
    return { status: 'ONLINE', codec: stream.codec_name, ...(stream.width ? { width: stream.width } : {}), ...(stream.height ? { height: stream.height } : {}) };
  }

  /** One JPEG frame; an OFFLINE result when the camera gives none. */
  async thumbnail(url: string): Promise<Buffer | VideoProbeResult> {
    if (!this.paths.ffmpeg) return { status: 'OFFLINE', reason: 'FFMPEG_MISSING' };
    const args = ['-v', 'error', ...rtspInput(url), '-frames:v', '1', '-vf', 'scale=480:-2', '-f', 'image2', '-c:v', 'mjpeg', 'pipe:1'];
    const result = await this.run(this.paths.ffmpeg, args, THUMBNAIL_DEADLINE_MS);
    if (result.timedOut) return { status: 'OFFLINE', reason: 'TIMEOUT' };
    if (result.code !== 0 || result.stdout.length === 0) return { status: 'OFFLINE', reason: reasonOf(result.stderr) };
    return result.stdout;
  }

  /** Starts a long-running ffmpeg (a live stream); it is killed with the others on close. */
  spawnFfmpeg(args: string[]): ChildProcess {
    if (!this.paths.ffmpeg) throw new Error('ffmpeg is missing');
    return this.track(spawn(this.paths.ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  }

  killAll(): void {
    for (const child of this.children) child.kill('SIGKILL');
    this.children.clear();
  }

  private track(child: ChildProcess): ChildProcess {
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  private run(path: string, args: string[], deadlineMs: number): Promise<RunResult> {
    return new Promise((resolve) => {
      const child = this.track(spawn(path, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
      const out: Buffer[] = [];
      let size = 0;
      let stderr = '';
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, deadlineMs);
      child.stdout!.on('data', (d: Buffer) => {
        size += d.length;
        if (size > OUTPUT_MAX_BYTES) child.kill('SIGKILL');
        else out.push(d);
      });
      child.stderr!.on('data', (d: Buffer) => {
        if (stderr.length < 16_384) stderr += d.toString('utf8');
      });
      child.once('error', (err) => {
        clearTimeout(timer);
        resolve({ stdout: Buffer.alloc(0), stderr: err.message, code: -1, timedOut: false });
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ stdout: Buffer.concat(out), stderr, code, timedOut });
      });
    });
  }
}

/** What ffmpeg's error text says went wrong, in the API's words. */
export function reasonOf(stderr: string): VideoOfflineReason {
  if (/401|403|Unauthorized|authorization failed/i.test(stderr)) return 'AUTH_FAILED';
  if (/\b404\b|Not Found/i.test(stderr)) return 'NOT_FOUND';
  // Before the timeout test: ffmpeg's refusal names the URL, whose options say `timeout=`.
  if (/refused|unreachable|No route|resolve|Name or service|Temporary failure|Connection reset|End of file/i.test(stderr)) return 'UNREACHABLE';
  if (/timed out/i.test(stderr)) return 'TIMEOUT';
  return 'FAILED';
}
