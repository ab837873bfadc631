/**
 * The offline manual's parsed blocks (markdown.ts) as elements, with every occurrence of the search
 * term marked. Text is only ever a text child, never HTML.
 */
import { Fragment, type JSX, type ReactNode } from 'react';
import { CodeBlock } from '../../components/CodeBlock.tsx';
import type { Block, Inline } from './markdown.ts';

/** `text` with each case-insensitive occurrence of `term` in a <mark>. */
export function highlight(text: string, term: string): ReactNode {
  if (!term) return text;
  const lower = text.toLowerCase();
  const parts: ReactNode[] = [];
  let from = 0;
  for (let at = lower.indexOf(term); at !== -1; at = lower.indexOf(term, at + term.length)) {
    if (at > from) parts.push(text.slice(from, at));
    parts.push(
      <mark key={at} className="ec-manual__mark">
        {text.slice(at, at + term.length)}
      </mark>,
    );
    from = at + term.length;
  }
  if (parts.length === 0) return text;
  if (from < text.length) parts.push(text.slice(from));
  return parts;
}

function Inlines({ inlines, term }: { inlines: readonly Inline[]; term: string }): JSX.Element {
  return (
    <>
      {inlines.map((n, i) => {
        if (n.kind === 'code') return <code key={i}>{highlight(n.text, term)}</code>;
        if (n.kind === 'strong') return <strong key={i}>{highlight(n.text, term)}</strong>;
        if (n.kind === 'link') {
          const external = n.href.startsWith('http');
          return (
            <a key={i} href={n.href} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
              {highlight(n.text, term)}
            </a>
          );
        }
        return <Fragment key={i}>{highlight(n.text, term)}</Fragment>;
      })}
    </>
  );
}

/** The code as plain text: search marks would hide the copyable command inside <pre>. */
function Code({ text, term }: { text: string; term: string }): JSX.Element {
  if (!term || !text.toLowerCase().includes(term)) return <CodeBlock text={text} testId="manual-code" />;
  return (
    <pre className="ec-code" data-testid="manual-code" tabIndex={0}>
      {highlight(text, term)}
    </pre>
  );
}

export function ManualBlocks({ blocks, term }: { blocks: readonly Block[]; term: string }): JSX.Element {
  return (
    <>
      {blocks.map((b, i) => {
        switch (b.kind) {
          case 'heading':
            return (
              <h3 key={i} id={b.id} tabIndex={-1} className="ec-manual__subtitle">
                {highlight(b.text, term)}
              </h3>
            );
          case 'paragraph':
            return (
              <p key={i}>
                <Inlines inlines={b.inlines} term={term} />
              </p>
            );
          case 'code':
            return <Code key={i} text={b.text} term={term} />;
          case 'list': {
            const items = b.items.map((item, j) => (
              <li key={j}>
                <Inlines inlines={item} term={term} />
              </li>
            ));
            return b.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
          }
          case 'table':
            return (
              <div key={i} className="ec-manual__table">
                <table>
                  <thead>
                    <tr>
                      {b.head.map((c, j) => (
                        <th key={j} scope="col">
                          <Inlines inlines={c} term={term} />
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {b.rows.map((row, j) => (
                      <tr key={j}>
                        {row.map((c, k) => (
                          <td key={k}>
                            <Inlines inlines={c} term={term} />
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            );
        }
      })}
    </>
  );
}
