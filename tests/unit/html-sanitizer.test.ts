/** The notice content sanitizer (server/modules/notice/html-sanitizer.ts) on hostile and ordinary HTML. */
import { describe, expect, it } from 'vitest';
import { sanitizeHtml, safeHref } from '../../server/modules/notice/html-sanitizer.ts';

describe('notice HTML sanitizer', () => {
  it.each([
    ['<p>Hi<script>alert(1)</script></p>', '<p>Hi</p>'],
    ['<SCRIPT src=//evil></SCRIPT>ok', 'ok'],
    ['<img src=x onerror=alert(1)>', ''],
    ['<p onclick="x()" style="color:red">t</p>', '<p>t</p>'],
    ['<svg><script>x</script><a href="javascript:y">z</a></svg>after', 'after'],
    ['<scr<script>ipt>alert(1)</script>', '&lt;scr'],
    ['<iframe src="//evil">text</iframe>', ''],
    ['<!-- <script>x</script> -->kept', 'kept'],
    ['a < b && c > d', 'a &lt; b &amp;&amp; c &gt; d'],
    ['&lt;script&gt;', '&lt;script&gt;'],
    ['<ul><li><b>1</b></li></ul><br>', '<ul><li><b>1</b></li></ul><br>'],
  ])('turns %j into %j', (html, expected) => {
    expect(sanitizeHtml(html)).toBe(expected);
  });

  it.each(['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'java\tscript:x', '&#106;avascript:x', '&#x6A;avascript:x', 'data:text/html;base64,PHNjcmlwdD4=', 'vbscript:x', '/\\evil.example/', '\\\\evil.example', '//evil.example', '/\t/evil.example'])(
    'refuses the link target %j',
    (href) => {
      expect(safeHref(href)).toBeNull();
      expect(sanitizeHtml(`<a href="${href}">l</a>`)).toBe('<a>l</a>');
    },
  );

  it.each(['https://example.com/a?b=1', 'http://x/', 'mailto:ops@example.com', '/system/notice', '#top', 'notice/2'])('keeps the link target %j', (href) => {
    expect(safeHref(href)).toBe(href);
  });

  it.each([
    ['HTTPS://Example.COM/a', 'https://example.com/a'],
    ['/system/../notice', '/notice'],
    ['/a\\b', '/a/b'],
  ])('normalises the link target %j to %j', (href, expected) => {
    expect(safeHref(href)).toBe(expected);
  });

  it('reads a long run of unclosed tags in one pass', () => {
    const hostile = '<a'.repeat(10_000);
    expect(sanitizeHtml(hostile)).toBe('&lt;a'.repeat(10_000));
  });
});
