/**
 * Finds the file paths that documentation and code comments name, so that `npm run lint` can fail
 * on one that points nowhere (scripts/check-references.ts). A renamed or deleted file leaves such
 * references behind silently: no compiler reads a comment.
 *
 * What counts as a reference: a repository-relative path starting with one of `ROOTS`
 * (`server/modules/alarm/alarm-service.ts`, `docs/API.md`, `web/features/`), a path relative to
 * the file that starts with a dot and a slash (comments; in Markdown also two dots), and a
 * relative Markdown link target (`[API](API.md)`). Placeholders and patterns (`<module>`, `*`,
 * `{a,b}`, `NNNN`, `$x`) are not references, nor is anything inside a URL. In Markdown, relative
 * paths inside fenced code are not either: the code is quoted from another file's point of view.
 */
import { dirname, join, normalize } from 'node:path';

/** Top-level folders of the repository whose paths are checked. */
export const ROOTS = ['server', 'web', 'docs', 'tests', 'scripts', 'locales'] as const;

export interface Reference {
  /** The path as written (trailing punctuation removed). */
  text: string;
  /** The repository-relative path it names. */
  target: string;
  line: number;
}

/** A piece of commentary and the line it starts on. */
export interface Comment {
  text: string;
  line: number;
}

const PLACEHOLDER = /[<>*{}$]|NNNN/;
// A path character, plus the placeholder characters so that a pattern is seen whole and skipped.
const PATH_CHARS = String.raw`[\w.\-/<>*{}$@]`;
const rooted = new RegExp(String.raw`(?<![\w./@:-])(?:${ROOTS.join('|')})/${PATH_CHARS}*`, 'g');
const dotRelative = new RegExp(String.raw`(?<![\w./@:-])\.{1,2}/${PATH_CHARS}+`, 'g');
const markdownLink = /\]\(([^()\s]+)(?:\s+"[^"]*")?\)/g;
const url = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;

function clean(path: string): string {
  return path.replace(/[.,:;]+$/, '');
}

function lineAt(text: string, offset: number): number {
  let line = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * The references in one piece of text. `file` is the repository-relative path of the file the
 * text is from (relative paths resolve against its folder); `markdown` adds link targets and `../`.
 */
export function referencesIn(text: string, file: string, options: { markdown: boolean }): Reference[] {
  const found: Reference[] = [];
  const blanked = text.replace(url, (m) => ' '.repeat(m.length));
  // Fenced code blanked, newlines kept (so offsets keep their lines), for the relative passes.
  const prose = options.markdown ? blanked.replace(/^[ \t]*```[\s\S]*?^[ \t]*```/gm, (m) => m.replace(/[^\n]/g, ' ')) : blanked;
  const add = (raw: string, offset: number, target: string): void => {
    if (PLACEHOLDER.test(raw)) return;
    found.push({ text: raw, target, line: lineAt(text, offset) });
  };
  for (const m of blanked.matchAll(rooted)) {
    const raw = clean(m[0]);
    // A bare root word followed by a slash ("server/ and web/") names the folder: nothing to check.
    if (!raw.includes('/', raw.indexOf('/') + 1) && raw.endsWith('/')) continue;
    add(raw, m.index, normalize(raw));
  }
  for (const m of prose.matchAll(dotRelative)) {
    const raw = clean(m[0]);
    if (raw.startsWith('../') && !options.markdown) continue;
    if (raw === './' || raw === '../') continue;
    add(raw, m.index, normalize(join(dirname(file), raw)));
  }
  if (options.markdown) {
    for (const m of prose.matchAll(markdownLink)) {
      const target = m[1]!.split('#')[0]!;
      // Links starting with a root or ./ were found above; a bare anchor or a URL is not a file.
      if (!target || target.startsWith('./') || target.startsWith('../') || ROOTS.some((r) => target.startsWith(`${r}/`))) continue;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
      add(target, m.index, normalize(join(dirname(file), target)));
    }
  }
  return found;
}

/**
 * The comments of a TypeScript or JavaScript source, with their lines: strings, template literals
 * and regular expression literals are skipped, so `'//'` or `/\/\*\//` start no comment.
 */
export function commentsOfScript(source: string): Comment[] {
  const comments: Comment[] = [];
  let line = 1;
  let i = 0;
  let lastSignificant = '';
  const n = source.length;
  const advanceTo = (end: number): void => {
    for (let k = i; k < end; k++) if (source[k] === '\n') line++;
    i = end;
  };
  while (i < n) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      comments.push({ text: source.slice(i + 2, stop), line });
      advanceTo(stop);
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      comments.push({ text: source.slice(i + 2, end === -1 ? n : end), line });
      advanceTo(stop);
    } else if (c === "'" || c === '"' || c === '`') {
      let k = i + 1;
      while (k < n && source[k] !== c) {
        if (source[k] === '\\') k++;
        else if (c !== '`' && source[k] === '\n') break;
        k++;
      }
      advanceTo(Math.min(k + 1, n));
      lastSignificant = c;
    } else if (c === '/' && (lastSignificant === '' || '(,=:[!&|?{};+-*%<>~^'.includes(lastSignificant) || /\b(?:return|typeof|case|in|of)$/.test(source.slice(Math.max(0, i - 8), i).trimEnd()))) {
      // A regular expression literal: up to the closing slash outside a character class.
      let k = i + 1;
      let inClass = false;
      while (k < n && source[k] !== '\n') {
        const ch = source[k]!;
        if (ch === '\\') k++;
        else if (ch === '[') inClass = true;
        else if (ch === ']') inClass = false;
        else if (ch === '/' && !inClass) break;
        k++;
      }
      advanceTo(Math.min(k + 1, n));
      lastSignificant = '/';
    } else {
      if (c === '\n') line++;
      else if (c !== ' ' && c !== '\t' && c !== '\r') lastSignificant = c;
      i++;
    }
  }
  return comments;
}

/** The comments of a CSS file (block comments only). */
export function commentsOfCss(source: string): Comment[] {
  const comments: Comment[] = [];
  for (const m of source.matchAll(/\/\*([\s\S]*?)\*\//g)) comments.push({ text: m[1]!, line: lineAt(source, m.index) + 1 });
  return comments;
}

/** The comments of a shell script: from a `#` at the start of a line or after a blank. */
export function commentsOfShell(source: string): Comment[] {
  const comments: Comment[] = [];
  source.split('\n').forEach((text, index) => {
    const m = /(?:^|\s)#(?!!)(.*)$/.exec(text);
    if (m) comments.push({ text: m[1]!, line: index + 1 });
  });
  return comments;
}

/** Every reference of one file, with absolute line numbers; null for a file of a kind not checked. */
export function referencesOfFile(file: string, source: string): Reference[] | null {
  if (file.endsWith('.md')) return referencesIn(source, file, { markdown: true }).map((r) => ({ ...r, line: r.line + 1 }));
  let comments: Comment[];
  if (/\.(?:[cm]?[jt]sx?)$/.test(file)) comments = commentsOfScript(source);
  else if (file.endsWith('.css')) comments = commentsOfCss(source);
  else if (file.endsWith('.sh')) comments = commentsOfShell(source);
  else return null;
  return comments.flatMap((c) => referencesIn(c.text, file, { markdown: false }).map((r) => ({ ...r, line: c.line + r.line })));
}
