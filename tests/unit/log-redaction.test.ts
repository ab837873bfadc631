import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../server/lib/logger-options.ts';

const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJl';

describe('log redaction', () => {
  it('hides secrets by field name at any depth, in paths, queries and bearer headers, keeping the line valid JSON', () => {
    const line = JSON.stringify({
      msg: `closed incoming websocket connection for path /api/ws/plugins/telemetry?token=${jwt}&x=1`,
      path: '/api/v1/A1b2C3d4E5f6G7h8I9j0/rpc?timeout=5',
      deep: { headers: { 'x-setup-code': 'CLBCHNHH2U43', authorization: `Bearer ${jwt}`, Cookie: 'sid=1' }, body: { password: 'p"w\\d', refreshToken: 'r1' } },
      err: `Bearer abc.def failed; see ?access_token=t0k&refresh_token=r3f`,
    });
    const out = redactSecrets(line);
    for (const secret of [jwt, 'A1b2C3d4E5f6G7h8I9j0', 'CLBCHNHH2U43', 'sid=1', 'p\\"w', 'r1', 'abc.def', 't0k', 'r3f']) {
      expect(out, secret).not.toContain(secret);
    }
    expect(JSON.parse(out)).toMatchObject({
      path: '/api/v1/***/rpc?timeout=5',
      deep: { headers: { 'x-setup-code': '***', authorization: '***' }, body: { password: '***', refreshToken: '***' } },
    });
    expect(out).toContain('?token=***&x=1');
  });
});
