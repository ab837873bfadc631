/**
 * Stands in for `resize-observer-polyfill` in the web build (scripts/build.ts alias): every browser
 * the console targets (Chrome 90, Firefox 90, Safari 15) has ResizeObserver natively, and the
 * polyfill cost the login page 2.5 KB gzip.
 */
export default globalThis.ResizeObserver;
