/** The mark shown when the platform has no logo of its own (spec section 1: "a default logo"). */
import type { JSX } from 'react';

export function FallbackLogo({ size = 48, title }: { size?: number; title?: string }): JSX.Element {
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" role="img" aria-label={title}>
      <rect x="2" y="2" width="44" height="44" rx="12" fill="rgb(var(--primary-6))" />
      <circle cx="24" cy="24" r="5" fill="#fff" />
      <g stroke="#fff" strokeWidth="2.5" strokeLinecap="round" fill="none">
        <path d="M24 19V11M24 29v8M19 24h-8M29 24h8" />
        <path d="M16 16l-2.5-2.5M32 32l2.5 2.5M32 16l2.5-2.5M16 32l-2.5 2.5" opacity="0.7" />
      </g>
      <g fill="#fff">
        <circle cx="24" cy="10" r="2.5" />
        <circle cx="24" cy="38" r="2.5" />
        <circle cx="10" cy="24" r="2.5" />
        <circle cx="38" cy="24" r="2.5" />
      </g>
    </svg>
  );
}
