/**
 * Adds a chunk's CSS to the page when the chunk first runs. The web build turns every CSS import
 * into a call of this (scripts/web-build-plugins.ts), so a lazily loaded page brings exactly the
 * styles of the components it uses and the login page does not download the whole console's CSS.
 * The CSP allows inline styles already (Arco sets style attributes), so no policy is weakened.
 */
export function injectStyle(css: string): void {
  const el = document.createElement('style');
  el.textContent = css;
  document.head.appendChild(el);
}
