/**
 * Cuts ffmpeg's fragmented MP4 output into what a viewer receives: the init segment (ftyp+moov)
 * once, then one message per fragment (moof+mdat). With `frag_keyframe` every fragment starts at a
 * keyframe, so a viewer may join at any fragment.
 */
export interface Mp4Sink {
  init(segment: Buffer): void;
  fragment(fragment: Buffer): void;
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
        this.sink.fragment(Buffer.concat(this.head));
        this.head = [];
      }
    }
  }
}
