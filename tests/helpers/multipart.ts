/** Builds multipart/form-data bodies for `app.inject`, which has no form encoder of its own. */
import { randomBytes } from 'node:crypto';

export interface MultipartFile {
  filename: string;
  content: Buffer | string;
  contentType?: string;
}

export interface MultipartBody {
  payload: Buffer;
  headers: { 'content-type': string };
}

/** Each field is a file (object) or a plain text value (string). */
export function multipart(fields: Record<string, MultipartFile | string>): MultipartBody {
  const boundary = `----edge-test-${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
      continue;
    }
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\n` +
          `Content-Type: ${value.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.isBuffer(value.content) ? value.content : Buffer.from(value.content),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
