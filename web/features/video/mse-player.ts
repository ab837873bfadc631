/**
 * A small MSE player of our own for the gateway's live fMP4 websocket (server/contract/video.ts):
 * the first message is the init segment, every later one a fragment to append. A drift guard keeps
 * playback within MAX_LATENCY_S of the newest frame (MSE latency otherwise creeps from half a
 * second to several over hours), and the played part of the buffer is trimmed so memory stays flat.
 * Loaded only by the video pages.
 */
import { VIDEO_CLOSE_ENDED, VIDEO_CLOSE_LIMIT, VIDEO_CLOSE_NO_FFMPEG, VIDEO_CLOSE_NOT_FOUND } from '../../../server/contract/video.ts';

const MAX_LATENCY_S = 1;
/** Where the guard puts playback when it jumps: close to live, with a little to play from. */
const JUMP_BEHIND_S = 0.3;
const KEEP_BEHIND_S = 10;

export type PlayerState = 'connecting' | 'playing' | 'ended' | 'limit' | 'notFound' | 'noFfmpeg' | 'unsupported' | 'failed';

/** The MIME codec of the init segment's video track: avc1.PPCCLL from avcC, a generic hvc1 for H.265. */
export function codecOf(init: Uint8Array): string | null {
  const text = new TextDecoder('latin1').decode(init);
  const avcC = text.indexOf('avcC');
  if (avcC >= 0) {
    const hex = (i: number): string => init[avcC + 4 + i]!.toString(16).padStart(2, '0');
    return `avc1.${hex(1)}${hex(2)}${hex(3)}`;
  }
  if (text.includes('hvcC')) return 'hvc1.1.6.L93.B0';
  return null;
}

function stateOfClose(code: number): PlayerState {
  if (code === VIDEO_CLOSE_LIMIT) return 'limit';
  if (code === VIDEO_CLOSE_NOT_FOUND) return 'notFound';
  if (code === VIDEO_CLOSE_NO_FFMPEG) return 'noFfmpeg';
  if (code === VIDEO_CLOSE_ENDED) return 'ended';
  return 'failed';
}

export class MsePlayer {
  private socket: WebSocket | null = null;
  private source: MediaSource | null = null;
  private buffer: SourceBuffer | null = null;
  private readonly queue: ArrayBuffer[] = [];
  private stopped = false;

  constructor(
    private readonly video: HTMLVideoElement,
    private readonly onState: (state: PlayerState) => void,
  ) {}

  start(url: string): void {
    if (typeof MediaSource === 'undefined') return this.onState('unsupported');
    this.onState('connecting');
    const source = new MediaSource();
    this.source = source;
    this.video.src = URL.createObjectURL(source);
    source.addEventListener('sourceopen', () => this.connect(url), { once: true });
  }

  stop(): void {
    this.stopped = true;
    this.socket?.close();
    this.socket = null;
    if (this.video.src) URL.revokeObjectURL(this.video.src);
    this.video.removeAttribute('src');
    this.video.load();
  }

  private connect(url: string): void {
    const socket = new WebSocket(url);
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.onmessage = (event: MessageEvent<ArrayBuffer>) => this.receive(event.data);
    socket.onclose = (event) => {
      if (!this.stopped) this.onState(stateOfClose(event.code));
    };
  }

  private receive(data: ArrayBuffer): void {
    if (!this.buffer) {
      const codec = codecOf(new Uint8Array(data));
      const mime = `video/mp4; codecs="${codec ?? 'avc1.42E01E'}"`;
      if (!this.source || !MediaSource.isTypeSupported(mime)) {
        this.socket?.close();
        return this.onState('unsupported');
      }
      this.buffer = this.source.addSourceBuffer(mime);
      this.buffer.mode = 'segments';
      this.buffer.addEventListener('updateend', () => this.afterAppend());
    }
    this.queue.push(data);
    this.pump();
  }

  private pump(): void {
    if (!this.buffer || this.buffer.updating) return;
    const next = this.queue.shift();
    if (!next) return;
    try {
      this.buffer.appendBuffer(next);
    } catch {
      // QuotaExceeded: drop what was played and try this fragment again on the next turn.
      this.queue.unshift(next);
      this.trim(0);
    }
  }

  private afterAppend(): void {
    const { buffered } = this.video;
    if (buffered.length) {
      const end = buffered.end(buffered.length - 1);
      if (end - this.video.currentTime > MAX_LATENCY_S) this.video.currentTime = Math.max(buffered.start(buffered.length - 1), end - JUMP_BEHIND_S);
      if (this.video.paused) void this.video.play().then(() => this.onState('playing'), () => undefined);
      this.trim(KEEP_BEHIND_S);
    }
    this.pump();
  }

  private trim(keepS: number): void {
    const buffer = this.buffer;
    const { buffered } = this.video;
    if (!buffer || buffer.updating || !buffered.length) return;
    const until = this.video.currentTime - keepS;
    if (until > buffered.start(0) + 1) buffer.remove(buffered.start(0), until);
  }
}
