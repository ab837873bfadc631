/**
 * A light rich text editor: a contentEditable area with bold, italic, underline, lists and links,
 * as a form control (`value`/`onChange` of HTML). No editor package: the page budget is 350 KB and
 * the server sanitizes what is saved anyway (it keeps only these tags), so the editor only needs to
 * produce them. `document.execCommand` is deprecated but still the one way every browser offers to
 * format a contentEditable selection with undo intact.
 */
import { useEffect, useRef, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import IconBold from '@arco-design/web-react/icon/react-icon/IconBold';
import IconItalic from '@arco-design/web-react/icon/react-icon/IconItalic';
import IconLink from '@arco-design/web-react/icon/react-icon/IconLink';
import IconOrderedList from '@arco-design/web-react/icon/react-icon/IconOrderedList';
import IconUnderline from '@arco-design/web-react/icon/react-icon/IconUnderline';
import IconUnorderedList from '@arco-design/web-react/icon/react-icon/IconUnorderedList';
import IconEraser from '@arco-design/web-react/icon/react-icon/IconEraser';
import './RichTextEditor.css';

export interface RichTextEditorLabels {
  toolbar: string;
  bold: string;
  italic: string;
  underline: string;
  bulletList: string;
  numberedList: string;
  link: string;
  linkPrompt: string;
  removeFormat: string;
}

export interface RichTextEditorProps {
  value?: string;
  onChange?: (html: string) => void;
  labels: RichTextEditorLabels;
  /** Accessible name of the editing area (the form item's label). */
  ariaLabel: string;
  placeholder?: string;
  testId: string;
  status?: 'error' | 'warning';
}

const commands = [
  { command: 'bold', icon: <IconBold />, label: 'bold' },
  { command: 'italic', icon: <IconItalic />, label: 'italic' },
  { command: 'underline', icon: <IconUnderline />, label: 'underline' },
  { command: 'insertUnorderedList', icon: <IconUnorderedList />, label: 'bulletList' },
  { command: 'insertOrderedList', icon: <IconOrderedList />, label: 'numberedList' },
  { command: 'removeFormat', icon: <IconEraser />, label: 'removeFormat' },
] as const;

export function RichTextEditor({ value, onChange, labels, ariaLabel, placeholder, testId, status }: RichTextEditorProps): JSX.Element {
  const area = useRef<HTMLDivElement>(null);

  // Only outside changes (form reset, another notice) are written in, never while the user types:
  // the form hands typed HTML back a render or two later, and writing that older copy in would
  // drop the newest keystrokes and move the caret to the start.
  useEffect(() => {
    const el = area.current;
    const html = value ?? '';
    if (el && document.activeElement !== el && el.innerHTML !== html) el.innerHTML = html;
  }, [value]);

  const emit = (): void => onChange?.(area.current?.innerHTML ?? '');

  const run = (command: string, argument?: string): void => {
    area.current?.focus();
    document.execCommand(command, false, argument);
    emit();
  };

  const link = (): void => {
    const href = window.prompt(labels.linkPrompt, 'https://');
    if (href && /^(https?:|mailto:)/i.test(href.trim())) run('createLink', href.trim());
  };

  return (
    <div className={`ec-rte${status === 'error' ? ' ec-rte--error' : ''}`} data-testid={testId}>
      <div className="ec-rte__toolbar" role="toolbar" aria-label={labels.toolbar}>
        {commands.map((c) => (
          <Button
            key={c.command}
            size="mini"
            type="text"
            icon={c.icon}
            aria-label={labels[c.label]}
            title={labels[c.label]}
            // Keeps the selection in the editing area while the button is pressed.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => run(c.command)}
            data-testid={`${testId}-${c.command}`}
          />
        ))}
        <Button size="mini" type="text" icon={<IconLink />} aria-label={labels.link} title={labels.link} onMouseDown={(e) => e.preventDefault()} onClick={link} data-testid={`${testId}-link`} />
      </div>
      <div
        ref={area}
        className="ec-rte__area"
        contentEditable
        role="textbox"
        aria-multiline="true"
        aria-label={ariaLabel}
        tabIndex={0}
        data-placeholder={placeholder}
        onInput={emit}
        onBlur={emit}
        data-testid={`${testId}-area`}
      />
    </div>
  );
}
