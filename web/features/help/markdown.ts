/**
 * The markdown subset the offline manual is written in (locales/<lang>/manual.md), parsed into a
 * tree the page renders as elements: never as HTML, so text that looks like markup stays text.
 *
 * Blocks: `## Heading {#id}` and `### Heading {#id}`, paragraphs (lines joined), fenced code
 * (```), lists (`- ` and `1. `, one line per item), tables (`| a | b |` with a `|---|` second row).
 * Inline: `code`, **strong**, [text](href) with href `#anchor`, `/console/path` or `http(s)://…`
 * (anything else is shown as its text). `{{name}}` is filled from `vars` before parsing, so a
 * command can carry this gateway's host and ports.
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; text: string }
  | { kind: 'link'; text: string; href: string };

export type Block =
  | { kind: 'heading'; level: 2 | 3; id: string; text: string }
  | { kind: 'paragraph'; inlines: Inline[] }
  | { kind: 'code'; text: string }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'table'; head: Inline[][]; rows: Inline[][][] };

/** A `##` heading and everything up to the next one: what search filters and anchors open. */
export interface Section {
  id: string;
  title: string;
  blocks: Block[];
  /** Every text the section shows, lower-cased, for search. */
  searchText: string;
}

const heading = /^(#{2,3})\s+(.+?)\s*\{#([a-z0-9-]+)\}\s*$/;
const fence = /^```/;
const bullet = /^-\s+(.*)$/;
const numbered = /^\d+\.\s+(.*)$/;
const tableRow = /^\|(.*)\|\s*$/;
const tableRule = /^\|[\s:|-]+\|\s*$/;
const inlinePattern = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** A link target the manual may use: an anchor, a console path, or a web address. */
export function safeHref(href: string): string | null {
  if (/^#[A-Za-z0-9-]+$/.test(href)) return href;
  if (/^\/(?!\/)[A-Za-z0-9/._~%-]*$/.test(href)) return href;
  if (/^https?:\/\/[^\s"'<>]+$/.test(href)) return href;
  return null;
}

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const m of text.matchAll(inlinePattern)) {
    const at = m.index ?? 0;
    if (at > last) out.push({ kind: 'text', text: text.slice(last, at) });
    if (m[1] !== undefined) out.push({ kind: 'code', text: m[1] });
    else if (m[2] !== undefined) out.push({ kind: 'strong', text: m[2] });
    else {
      const href = safeHref(m[4] ?? '');
      out.push(href ? { kind: 'link', text: m[3] ?? '', href } : { kind: 'text', text: m[3] ?? '' });
    }
    last = at + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

function cells(line: string): Inline[][] {
  return (tableRow.exec(line)?.[1] ?? '').split('|').map((c) => parseInline(c.trim()));
}

/** Replaces `{{name}}` by `vars[name]`; an unknown name stays as written. */
export function fill(source: string, vars: Readonly<Record<string, string>>): string {
  return source.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => vars[name] ?? whole);
}

export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || line.startsWith('# ')) {
      i++;
      continue;
    }
    const h = heading.exec(line);
    if (h) {
      blocks.push({ kind: 'heading', level: h[1] === '##' ? 2 : 3, text: h[2] ?? '', id: h[3] ?? '' });
      i++;
      continue;
    }
    if (fence.test(line)) {
      const code: string[] = [];
      i++;
      while (i < lines.length && !fence.test(lines[i] ?? '')) code.push(lines[i++] ?? '');
      i++;
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    if (bullet.test(line) || numbered.test(line)) {
      const ordered = numbered.test(line);
      const item = ordered ? numbered : bullet;
      const items: Inline[][] = [];
      while (i < lines.length && item.test(lines[i] ?? '')) items.push(parseInline(item.exec(lines[i++] ?? '')?.[1] ?? ''));
      blocks.push({ kind: 'list', ordered, items });
      continue;
    }
    if (tableRow.test(line) && tableRule.test(lines[i + 1] ?? '')) {
      const head = cells(line);
      const rows: Inline[][][] = [];
      i += 2;
      while (i < lines.length && tableRow.test(lines[i] ?? '')) rows.push(cells(lines[i++] ?? ''));
      blocks.push({ kind: 'table', head, rows });
      continue;
    }
    const text: string[] = [];
    while (i < lines.length) {
      const l = lines[i] ?? '';
      if (l.trim() === '' || heading.test(l) || fence.test(l) || bullet.test(l) || numbered.test(l) || tableRow.test(l)) break;
      text.push(l.trim());
      i++;
    }
    blocks.push({ kind: 'paragraph', inlines: parseInline(text.join(' ')) });
  }
  return blocks;
}

function inlineText(inlines: readonly Inline[]): string {
  return inlines.map((n) => n.text).join('');
}

function blockText(block: Block): string {
  switch (block.kind) {
    case 'heading':
    case 'code':
      return block.text;
    case 'paragraph':
      return inlineText(block.inlines);
    case 'list':
      return block.items.map(inlineText).join('\n');
    case 'table':
      return [block.head, ...block.rows].map((row) => row.map(inlineText).join(' ')).join('\n');
  }
}

/** The manual cut at its `##` headings; text before the first one is not a section. */
export function parseSections(source: string, vars: Readonly<Record<string, string>> = {}): Section[] {
  const sections: Section[] = [];
  for (const block of parseBlocks(fill(source, vars))) {
    if (block.kind === 'heading' && block.level === 2) {
      sections.push({ id: block.id, title: block.text, blocks: [], searchText: '' });
      continue;
    }
    sections.at(-1)?.blocks.push(block);
  }
  for (const s of sections) s.searchText = [s.title, ...s.blocks.map(blockText)].join('\n').toLowerCase();
  return sections;
}

/** Every anchor of the manual (sections and subsections), so a link can be checked against it. */
export function anchorsOf(source: string): string[] {
  return parseBlocks(source).flatMap((b) => (b.kind === 'heading' ? [b.id] : []));
}
