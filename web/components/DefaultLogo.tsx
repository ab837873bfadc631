/** The logo shown when no platform logo has been uploaded: a gateway node with three links. */
import type { JSX } from 'react';

export interface DefaultLogoProps {
  size?: number;
  title?: string;
}

export function DefaultLogo({ size = 32, title }: DefaultLogoProps): JSX.Element {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 32 32"
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      aria-label={title}
      className="default-logo"
    >
      <rect width="32" height="32" rx="8" style={{ fill: "rgb(var(--brand-6, 118, 53, 220))" }} />
      <g stroke="#fff" strokeWidth="2" strokeLinecap="round" fill="none">
        <path d="M16 16 9 9M16 16l7-7M16 16v8" />
        <circle cx="16" cy="16" r="3.2" fill="#fff" />
      </g>
      <g fill="#fff">
        <circle cx="8.5" cy="8.5" r="2.2" />
        <circle cx="23.5" cy="8.5" r="2.2" />
        <circle cx="16" cy="25" r="2.2" />
      </g>
    </svg>
  );
}
