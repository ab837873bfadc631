/**
 * Cuts ffmpeg's fragmented MP4 output into what a viewer receives: the init segment (ftyp+moov)
 * once, then one message per fragment (moof+mdat). Fragments are cut every ~100 ms, not only at
 * keyframes (a first fragment must not wait a whole GOP), so each fragment says whether it starts
 * at a keyframe: a viewer joins at one that does.
 */
export interface Mp4Sink {
  init(segment: Buffer): void;
  fragment(fragment: Buffer, startsAtKeyframe: boolean): void;
}

/** ISO BMFF sample flags: sample_is_non_sync_sample. */
const NON_SYNC_SAMPLE = 0x10000;

/** The child boxes of the box body `buf[from, to)`: [type, start of the child's body, end]. */
function children(buf: Buffer, from: number, to: number): [string, number, number][] {
  const found: [string, number, number][] = [];
  for (let i = from; i + 8 <= to; ) {
    const size = buf.readUInt32BE(i);
    if (size < 8 || i + size > to) break;
    found.push([buf.toString('latin1', i + 4, i + 8), i + 8, i + size]);
    i += size;
  }
  return found;
}

/** tfhd's default_sample_flags, when present. */
function tfhdDefaultFlags(buf: Buffer, body: number): number | null {
  const flags = buf.readUInt32BE(body) & 0xffffff;
  if (!(flags & 0x20)) return null;
  let at = body + 8; // version+flags, track_ID
  if (flags & 0x1) at += 8; // base_data_offset
  if (flags & 0x2) at += 4; // sample_description_index
  if (flags & 0x8) at += 4; // default_sample_duration
  if (flags & 0x10) at += 4; // default_sample_size
  return buf.readUInt32BE(at);
}

/** trun's flags of its first sample (per-sample flags, else first_sample_flags), when present. */
function trunFirstFlags(buf: Buffer, body: number): number | null {
  const flags = buf.readUInt32BE(body) & 0xffffff;
  let at = body + 8; // version+flags, sample_count
  if (flags & 0x1) at += 4; // data_offset
  if (flags & 0x4) return buf.readUInt32BE(at); // first_sample_flags
  if (!(flags & 0x400)) return null;
  if (flags & 0x100) at += 4; // sample_duration
  if (flags & 0x200) at += 4; // sample_size
  return buf.readUInt32BE(at);
}

/**
 * Whether a moof's (first track's) first sample is a sync sample. Unknown flags (they would come
 * from the moov's trex) count as a keyframe: a viewer then joins at once, as before this check.
 */
export function startsAtKeyframe(moof: Buffer): boolean {
  const traf = children(moof, 8, moof.length).find(([t]) => t === 'traf');
  if (!traf) return true;
  const boxes = children(moof, traf[1], traf[2]);
  const tfhd = boxes.find(([t]) => t === 'tfhd');
  const trun = boxes.find(([t]) => t === 'trun');
  const flags = (trun && trunFirstFlags(moof, trun[1])) ?? (tfhd && tfhdDefaultFlags(moof, tfhd[1])) ?? null;
  return flags === null || (flags & NON_SYNC_SAMPLE) === 0;
}

/** A box larger than this is not a camera's fragment but a broken stream. */
const BOX_MAX_BYTES = 64 * 1024 * 1024;

export class Mp4Splitter {
  private pending: Buffer = Buffer.alloc(0);
  private head: Buffer[] = [];
  private initSent = false;

  constructor(private readonly sink: Mp4Sink) {}

  /** Throws on a box whose size cannot be right. */
  push(chunk: Buffer): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    for (;;) {
      if (this.pending.length < 8) return;
      const size = this.pending.readUInt32BE(0);
      if (size < 8 || size > BOX_MAX_BYTES) throw new Error(`bad MP4 box size ${size}`);
      if (this.pending.length < size) return;
      const type = this.pending.toString('latin1', 4, 8);
      this.box(type, this.pending.subarray(0, size));
      this.pending = this.pending.subarray(size);
    }
  }

  private box(type: string, box: Buffer): void {
    if (!this.initSent) {
      this.head.push(box);
      if (type === 'moov') {
        this.sink.init(Buffer.concat(this.head));
        this.head = [];
        this.initSent = true;
      }
      return;
    }
    // moof opens a fragment; its mdat (and anything else before the next moof) closes it.
    if (type === 'moof') this.head = [box];
    else if (this.head.length) {
      this.head.push(box);
      if (type === 'mdat') {
        this.sink.fragment(Buffer.concat(this.head), startsAtKeyframe(this.head[0]!));
        this.head = [];
      }
    }
  }
}
