/**
 * The live preview's fragment cutting (server/modules/video/mp4-boxes.ts) on ffmpeg's real output:
 * fragments leave every 100 ms, so most do not start at a keyframe, and a viewer may only join at
 * one that does. The stream is what the gateway's ffmpeg writes (fragmented MP4, -c copy of H.264),
 * made here from a test pattern with a keyframe every 10 frames.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Mp4Splitter } from '../../server/modules/video/mp4-boxes.ts';

function fragmentedMp4(): Buffer {
  return execFileSync('ffmpeg', [
    '-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25:duration=2',
    '-c:v', 'libx264', '-g', '10', '-bf', '0', '-f', 'mp4',
    '-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-frag_duration', '100000', 'pipe:1',
  ], { maxBuffer: 64 * 1024 * 1024 });
}

describe('live preview fragments', () => {
  it('marks exactly the fragments that start at a keyframe', () => {
    const inits: Buffer[] = [];
    const fragments: boolean[] = [];
    const splitter = new Mp4Splitter({ init: (b) => inits.push(b), fragment: (_b, key) => fragments.push(key) });
    const mp4 = fragmentedMp4();
    // Fed in odd-sized pieces, as a pipe delivers it.
    for (let i = 0; i < mp4.length; i += 997) splitter.push(mp4.subarray(i, i + 997));
    expect(inits).toHaveLength(1);
    // 50 frames, a keyframe every 10: 5 GOPs, each cut into fragments of ~100 ms (2-3 frames).
    expect(fragments.length).toBeGreaterThanOrEqual(15);
    expect(fragments[0]).toBe(true);
    expect(fragments.filter(Boolean)).toHaveLength(5);
  });
});
