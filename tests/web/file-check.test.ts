import { describe, expect, it } from 'vitest';
import { acceptAttribute, checkFile, extensionOf, formatBytes } from '../../web/components/file-check.ts';
import { AVATAR_EXTENSIONS, UPLOAD_MAX_BYTES } from '../../server/contract/validation.ts';

describe('checks of a chosen file before upload', () => {
  it('accepts an avatar of exactly 5 MB', () => {
    expect(checkFile({ name: 'me.PNG', size: UPLOAD_MAX_BYTES }, AVATAR_EXTENSIONS, UPLOAD_MAX_BYTES)).toBeNull();
  });

  it('refuses a file one byte over the ceiling', () => {
    expect(checkFile({ name: 'me.png', size: UPLOAD_MAX_BYTES + 1 }, AVATAR_EXTENSIONS, UPLOAD_MAX_BYTES)).toBe('size');
  });

  it('refuses a licence that is not a .lic file, even when the name only contains it', () => {
    expect(checkFile({ name: 'edge.lic.txt', size: 10 }, ['lic'], UPLOAD_MAX_BYTES)).toBe('type');
    expect(checkFile({ name: 'lic', size: 10 }, ['lic'], UPLOAD_MAX_BYTES)).toBe('type');
  });

  it('refuses an empty file', () => {
    expect(checkFile({ name: 'edge.lic', size: 0 }, ['lic'], UPLOAD_MAX_BYTES)).toBe('type');
  });

  it('reads the extension case-insensitively and only after the last dot', () => {
    expect(extensionOf('A.B.JPEG')).toBe('jpeg');
    expect(extensionOf('.hidden')).toBe('');
    expect(extensionOf('name.')).toBe('');
  });

  it('builds the input accept attribute and the size text of the message', () => {
    expect(acceptAttribute(AVATAR_EXTENSIONS)).toBe('.png,.jpg,.jpeg,.gif');
    expect(formatBytes(UPLOAD_MAX_BYTES)).toBe('5 MB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(900)).toBe('900 B');
  });
});
