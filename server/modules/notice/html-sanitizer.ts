/**
 * An allow-list HTML sanitizer for notice content, without a DOM: the console's editor produces a
 * handful of formatting tags, so anything else is dropped rather than understood. Kept tags lose
 * every attribute but a link's `href` (http, https, mailto, or a reference on the console's origin).
 * Elements whose content is code or foreign documents (script, style, iframe, …) go with their
 * content; other unknown tags go but their text stays. Text is re-escaped, so a stray `<` can never
 * start a tag in the browser. A tag is read up to the next `<` at most, which keeps the scan linear
 * on hostile input (a `<` inside a tag is text here, where a browser would make it an attribute).
 */

const allowedTags = new Set([
  'p', 'br', 'div', 'span', 'b', 'strong', 'i', 'em', 'u', 's', 'strike', 'ul', 'ol', 'li', 'a',
  'h1', 'h2', 'h3', 'h4', 'blockquote', 'code', 'pre', 'hr',
]);
const voidTags = new Set(['br', 'hr']);
/** Dropped with everything up to their closing tag. */
const droppedWithContent = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'textarea', 'title', 'svg', 'math', 'xmp', 'noembed', 'noframes']);

const TOKEN = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<[!?][^>]*>?|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^<>"']|"[^<"]*"|'[^<']*')*)>|<|[^<]+/g;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

const namedEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', colon: ':', tab: '\t', newline: '\n' };

/** Decodes character references, so `&#106;avascript:` is seen as what the browser will see. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return namedEntities[ref.toLowerCase()] ?? whole;
  });
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}

/** The origin relative link targets are resolved against: a name that is never anyone's host. */
const SAME_ORIGIN = 'http://same-origin.invalid';

/**
 * A link target that stays harmless in the browser: an http(s) URL (normalised), mailto (the
 * editor's own links), or a reference that stays on the console's origin. A relative reference is
 * resolved the way a browser resolves it first, so `//evil`, `/\evil` and `\\evil` (another
 * site, although they look like paths) are refused; a path from the root comes back normalised.
 */
export function safeHref(raw: string): string | null {
  // Browsers ignore control characters and white space inside a scheme ("java\tscript:").
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
  const href = decodeEntities(raw).replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  if (/^mailto:/i.test(href)) return href;
  let url: URL;
  try {
    url = new URL(href, `${SAME_ORIGIN}/`);
  } catch {
    return null;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  if (url.origin !== SAME_ORIGIN) return null;
  if (href.startsWith('#')) return url.hash;
  // A path from the root, written with backslashes or dot segments, as the browser will read it.
  if (/^[/\\]/.test(href)) return url.pathname + url.search + url.hash;
  return href;
}

function keptAttributes(tag: string, source: string): string {
  if (tag !== 'a') return '';
  for (const m of source.matchAll(ATTRIBUTE)) {
    if (m[1]!.toLowerCase() !== 'href') continue;
    const href = safeHref(m[2] ?? m[3] ?? m[4] ?? '');
    return href === null ? '' : ` href="${escapeAttribute(href)}" target="_blank" rel="noopener noreferrer"`;
  }
  return '';
}

/** `html` with only allowed tags and a link's safe `href` left; text escaped. */
export function sanitizeHtml(html: string): string {
  let out = '';
  let skipUntil: string | null = null;
  for (const m of html.matchAll(TOKEN)) {
    const [token, closing, rawName, attributes] = m;
    const name = rawName?.toLowerCase();
    if (skipUntil) {
      if (closing && name === skipUntil) skipUntil = null;
      continue;
    }
    if (name === undefined) {
      // Text, a stray "<", a comment, a doctype or a processing instruction.
      if (token.startsWith('<!') || token.startsWith('<?')) continue;
      out += escapeText(decodeEntities(token));
      continue;
    }
    if (droppedWithContent.has(name)) {
      if (!closing && !/\/\s*$/.test(attributes ?? '')) skipUntil = name;
      continue;
    }
    if (!allowedTags.has(name)) continue;
    if (closing) {
      if (!voidTags.has(name)) out += `</${name}>`;
    } else {
      out += `<${name}${keptAttributes(name, attributes ?? '')}>`;
    }
  }
  return out;
}
