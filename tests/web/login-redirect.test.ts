import { describe, expect, it } from 'vitest';
import { safeRedirect } from '../../web/features/auth/redirect.ts';

describe('where sign-in leads', () => {
  it('returns to a console path with its query', () => {
    expect(safeRedirect('/device-manage/device?page=2')).toBe('/device-manage/device?page=2');
  });

  it('goes to the workbench without a redirect', () => {
    expect(safeRedirect(null)).toBe('/dashboard/workbench');
    expect(safeRedirect('')).toBe('/dashboard/workbench');
  });

  it.each([
    ['another origin', 'https://evil.example/x'],
    ['a protocol-relative address', '//evil.example/x'],
    ['a backslash address browsers read as another origin', '/\\evil.example'],
    ['a script address', 'javascript:alert(1)'],
    ['a relative path', 'dashboard'],
    ['a path with a control character', '/x\n//evil.example'],
  ])('refuses %s', (_, raw) => {
    expect(safeRedirect(raw)).toBe('/dashboard/workbench');
  });

  it('does not return to the sign-in or activation pages', () => {
    expect(safeRedirect('/login?redirect=/x')).toBe('/dashboard/workbench');
    expect(safeRedirect('/guide')).toBe('/dashboard/workbench');
  });
});
