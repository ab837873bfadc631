/**
 * Stands in for `typebox` in the web bundle only (aliased by scripts/build.ts). The console imports
 * the contract for its route tables (method, url), constants and types; the schemas themselves are
 * for the server, which validates every request. Building them in the browser would cost ~22 KB
 * gzip on the login page for objects nothing reads. Every builder call returns an inert object.
 */
type Inert = { readonly [key: string]: Inert } & ((...args: unknown[]) => Inert);

const inert: Inert = new Proxy(function inertSchema() {} as unknown as Inert, {
  get: (_target, key) => (key === Symbol.toPrimitive ? () => '' : key === 'toJSON' ? () => ({}) : inert),
  apply: () => inert,
  ownKeys: () => ['prototype'],
});

export const Type = inert;
export default inert;
