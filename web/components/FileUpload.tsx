/**
 * A file chooser that refuses a wrong type or an oversized file before anything is sent (the
 * server checks again). It is a real `<input type="file">` inside a label, so it works with the
 * keyboard, screen readers and test drivers' `setInputFiles`; the `drop` variant also accepts a
 * dragged file. Domain-free: the caller supplies the texts and what to do with the file.
 */
import { useRef, useState, type DragEvent, type JSX, type ReactNode } from 'react';
import Message from '@arco-design/web-react/es/Message';
import Spin from '@arco-design/web-react/es/Spin';
import { useTranslation } from 'react-i18next';
import { acceptAttribute, checkFile, formatBytes, type FileRefusal } from './file-check.ts';
import './FileUpload.css';

export interface FileUploadProps {
  /** Accepted extensions without the dot (`['png', 'jpg']`); empty accepts any type. */
  accept: readonly string[];
  maxBytes: number;
  /** Receives a file that passed the checks; while its promise runs the control shows loading. */
  onFile: (file: File) => void | Promise<void>;
  /** Receives the localized refusal; without it the refusal is shown as an error message. */
  onRefuse?: (message: string, reason: FileRefusal) => void;
  /** Trigger content: a button label, or the text of the drop area. */
  children: ReactNode;
  /** Secondary line under the trigger (allowed types, size). */
  hint?: ReactNode;
  /** Name of the chosen file to show, if the caller keeps one. */
  fileName?: string | null;
  variant?: 'button' | 'drop';
  disabled?: boolean;
  /** Loading state driven by the caller (e.g. an upload it starts later). */
  loading?: boolean;
  /** Status colour of the frame, e.g. when the form marks the field invalid. */
  status?: 'error';
  /** `data-testid` of the file input. */
  testId?: string;
  id?: string;
}

export function FileUpload(props: FileUploadProps): JSX.Element {
  const { accept, maxBytes, onFile, onRefuse, variant = 'button', testId } = props;
  const { t } = useTranslation(['common', 'errors', 'http']);
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const loading = busy || !!props.loading;
  const disabled = !!props.disabled || loading;

  const refusalText = (reason: FileRefusal): string =>
    reason === 'size'
      ? t('http:fileTooLarge', { size: formatBytes(maxBytes) })
      : t('errors:upload.badType', { types: acceptAttribute(accept).replace(/,/g, ', ') });

  const take = async (file: File | undefined): Promise<void> => {
    if (!file || disabled) return;
    const refusal = checkFile(file, accept, maxBytes);
    if (refusal) {
      const message = refusalText(refusal);
      if (onRefuse) onRefuse(message, refusal);
      else Message.error(message);
      return;
    }
    setBusy(true);
    try {
      await onFile(file);
    } finally {
      setBusy(false);
    }
  };

  const onDrop = (event: DragEvent<HTMLLabelElement>): void => {
    event.preventDefault();
    setDragging(false);
    void take(event.dataTransfer.files[0]);
  };

  const className = [
    'ec-file-upload',
    `ec-file-upload--${variant}`,
    dragging ? 'is-dragging' : '',
    disabled ? 'is-disabled' : '',
    props.status === 'error' ? 'is-error' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <label
      className={className}
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <input
        ref={input}
        id={props.id}
        className="ec-file-upload__input"
        type="file"
        accept={acceptAttribute(accept) || undefined}
        disabled={disabled}
        data-testid={testId}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          // Cleared so that choosing the same file again (after fixing something else) fires again.
          e.currentTarget.value = '';
          void take(file);
        }}
      />
      <span className="ec-file-upload__trigger">
        {loading ? <Spin size={14} className="ec-file-upload__spin" /> : null}
        {props.children}
      </span>
      {props.fileName ? <span className="ec-file-upload__name">{props.fileName}</span> : null}
      {props.hint ? <span className="ec-file-upload__hint">{props.hint}</span> : null}
    </label>
  );
}
