import { describe, expect, it } from 'vitest';
import { parseOpenFileLimit } from '../../server/lib/open-file-limit.ts';
import { httpConnectionBudget } from '../../server/plugins/http-guard.ts';

const limits = (openFiles: string) => `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            ${openFiles}               files
Max locked memory         8388608              8388608              bytes
`;

describe('open-file limit and the HTTP share of it', () => {
  it('reads the soft limit from /proc/self/limits, and nothing when unlimited or missing', () => {
    expect(parseOpenFileLimit(limits('400                  4096'))).toBe(400);
    expect(parseOpenFileLimit(limits('unlimited            unlimited'))).toBeNull();
    expect(parseOpenFileLimit('Max cpu time unlimited unlimited seconds\n')).toBeNull();
  });

  it('gives HTTP a quarter of the files left after 64 reserved, at least 16, and no cap when the limit is unknown', () => {
    expect(httpConnectionBudget(400)).toBe(84);
    expect(httpConnectionBudget(1024)).toBe(240);
    expect(httpConnectionBudget(65_536)).toBe(16_368);
    expect(httpConnectionBudget(80)).toBe(16);
    expect(httpConnectionBudget(null)).toBeNull();
  });
});
