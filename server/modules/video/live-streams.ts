/**
 * Live previews: one ffmpeg per channel remuxing its RTSP stream (no transcoding) into fragmented
 * MP4, shared by every viewer of the channel. A viewer gets the cached init segment, then fragments
 * from the next one that starts at a keyframe on. The ffmpeg stops `idleStopMs` after its last
 * viewer leaves; at most `maxStreams` run at once (an idle one gives way to a new channel).
 *
 * Time to the first frame (issue 30: ≤ 1.5 s in the browser): ffmpeg's stream probing reads media
 * for up to seconds by default, and fragments cut only at keyframes leave after a whole GOP (2 s at
 * the test camera, often more at real ones). So the probe is cut short (the SDP's parameter sets
 * name the codec and size) and a fragment leaves every 100 ms; a camera whose SDP lacks them makes
 * the quick probe fail before any output, and the stream starts again with ffmpeg's full probe.
 */
import type { ChildProcess } from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { VIDEO_CLOSE_ENDED, VIDEO_CLOSE_LIMIT, VIDEO_CLOSE_NO_FFMPEG } from '../../contract/video.ts';
import { rtspInput, type FfmpegTools } from './ffmpeg-tools.ts';
import { Mp4Splitter } from './mp4-boxes.ts';

/** A viewer further behind than this skips fragments until it catches up (a slow link must not grow our memory). */
const VIEWER_BACKLOG_BYTES = 4 * 1024 * 1024;
const KILL_GRACE_MS = 2_000;
/** Probe only what the SDP says (see above); FULL_PROBE is ffmpeg's default. */
const QUICK_PROBE = ['-probesize', '32', '-analyzeduration', '0'];
const FULL_PROBE: string[] = [];
/** A fragment at least every 100 ms (µs), and at every keyframe. */
const FRAGMENT_ARGS = ['-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-frag_duration', '100000'];

export interface LiveStreamsDeps {
  tools: FfmpegTools;
  maxStreams: number;
  idleStopMs: number;
  log: FastifyBaseLogger;
}

class Stream {
  init: Buffer | null = null;
  readonly viewers = new Set<WebSocket>();
  /** Viewers that got the init segment and wait for a fragment that starts at a keyframe. */
  private readonly waiting = new Set<WebSocket>();
  /** Viewers that get every fragment. */
  private readonly joined = new Set<WebSocket>();
  idleTimer: NodeJS.Timeout | null = null;

  constructor(readonly child: ChildProcess) {}

  add(socket: WebSocket): void {
    this.viewers.add(socket);
    if (this.init) this.start(socket);
  }

  start(socket: WebSocket): void {
    socket.send(this.init!);
    this.waiting.add(socket);
  }

  gotInit(init: Buffer): void {
    this.init = init;
    for (const socket of this.viewers) this.start(socket);
  }

  gotFragment(fragment: Buffer, startsAtKeyframe: boolean): void {
    if (startsAtKeyframe) {
      for (const socket of this.waiting) this.joined.add(socket);
      this.waiting.clear();
    }
    for (const socket of this.joined) {
      if (socket.bufferedAmount > VIEWER_BACKLOG_BYTES) continue;
      socket.send(fragment);
    }
  }

  remove(socket: WebSocket): void {
    this.viewers.delete(socket);
    this.waiting.delete(socket);
    this.joined.delete(socket);
  }
}

export class LiveStreams {
  private readonly streams = new Map<string, Stream>();

  constructor(private readonly deps: LiveStreamsDeps) {}

  get active(): number {
    return this.streams.size;
  }

  /** Adds `socket` as a viewer of the channel, starting its ffmpeg when none runs; closes the socket when refused. */
  watch(channelId: string, url: string, socket: WebSocket): void {
    if (!this.deps.tools.ffmpegPath) return socket.close(VIDEO_CLOSE_NO_FFMPEG, 'ffmpeg missing');
    let stream = this.streams.get(channelId);
    if (!stream) {
      if (this.streams.size >= this.deps.maxStreams && !this.stopOneIdle()) return socket.close(VIDEO_CLOSE_LIMIT, 'stream limit');
      stream = this.spawn(channelId, url);
    }
    if (stream.idleTimer) clearTimeout(stream.idleTimer);
    stream.idleTimer = null;
    stream.add(socket);
    // The channel's stream at close time: a failed quick probe replaces the stream a viewer joined.
    socket.once('close', () => {
      const current = this.streams.get(channelId);
      if (current) this.leave(channelId, current, socket);
    });
  }

  /** Stops the channel's stream now (a deleted or edited channel), closing its viewers. */
  stop(channelId: string): void {
    const stream = this.streams.get(channelId);
    if (stream) this.end(channelId, stream);
  }

  close(): void {
    for (const [id, stream] of [...this.streams]) this.end(id, stream);
  }

  private spawn(channelId: string, url: string, probe = QUICK_PROBE): Stream {
    const args = ['-nostdin', '-v', 'error', ...probe, ...rtspInput(url), '-map', '0:v:0', '-c', 'copy', '-f', 'mp4', ...FRAGMENT_ARGS, 'pipe:1'];
    const child = this.deps.tools.spawnFfmpeg(args);
    const stream = new Stream(child);
    this.streams.set(channelId, stream);
    const splitter = new Mp4Splitter({ init: (b) => stream.gotInit(b), fragment: (b, key) => stream.gotFragment(b, key) });
    child.stdout!.on('data', (chunk: Buffer) => {
      try {
        splitter.push(chunk);
      } catch (err) {
        this.deps.log.warn({ err, channelId }, 'video stream broken');
        this.end(channelId, stream);
      }
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      if (stderr.length < 4096) stderr += d.toString('utf8');
    });
    // ffmpeg removed or not executable since start-up: the viewers are told the stream ended.
    child.once('error', (err) => {
      this.deps.log.warn({ err, channelId }, 'video stream could not start');
      if (this.streams.get(channelId) === stream) this.end(channelId, stream);
    });
    child.once('exit', (code) => {
      if (this.streams.get(channelId) !== stream) return;
      if (probe === QUICK_PROBE && !stream.init && stream.viewers.size > 0) return this.retryWithFullProbe(channelId, url, stream);
      this.deps.log.info({ channelId, code, stderr: stderr.slice(0, 500).replace(/rtsp:\/\/[^@\s]*@/g, 'rtsp://***@') }, 'video stream ended');
      this.end(channelId, stream);
    });
    return stream;
  }

  /** The quick probe found too little (no parameter sets in the SDP): the same viewers, ffmpeg's full probe. */
  private retryWithFullProbe(channelId: string, url: string, failed: Stream): void {
    this.streams.delete(channelId);
    const next = this.spawn(channelId, url, FULL_PROBE);
    for (const socket of failed.viewers) next.add(socket);
  }

  private leave(channelId: string, stream: Stream, socket: WebSocket): void {
    stream.remove(socket);
    if (stream.viewers.size > 0 || this.streams.get(channelId) !== stream) return;
    stream.idleTimer = setTimeout(() => this.end(channelId, stream), this.deps.idleStopMs);
    stream.idleTimer.unref();
  }

  /** Frees a slot held by a stream nobody watches; false when every stream has viewers. */
  private stopOneIdle(): boolean {
    for (const [id, stream] of this.streams) {
      if (stream.viewers.size === 0) {
        this.end(id, stream);
        return true;
      }
    }
    return false;
  }

  private end(channelId: string, stream: Stream): void {
    if (this.streams.get(channelId) === stream) this.streams.delete(channelId);
    if (stream.idleTimer) clearTimeout(stream.idleTimer);
    for (const socket of [...stream.viewers]) socket.close(VIDEO_CLOSE_ENDED, 'stream ended');
    const child = stream.child;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'), KILL_GRACE_MS).unref();
    }
  }
}
