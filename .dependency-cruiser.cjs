// Import boundaries and load-time cycles, checked on resolved file paths (`npm run lint:imports`).
// oxlint (.oxlintrc.json) checks the code itself; these rules need the module graph, and the
// repository rule compares the importing module with the imported one, which a rule that only
// sees the import string cannot do.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'web-imports-only-the-contract',
      comment:
        'The console is built for the browser and talks to the server only through the API contract ' +
        '(server/contract/, see web/lib/api-client.ts); anything else of the server would drag Node ' +
        'code into the bundle or couple the UI to server internals.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^server/', pathNot: '^server/contract/' },
    },
    {
      name: 'server-never-imports-web',
      comment:
        'The server owns the contract and the UI depends on it, never the reverse: a server import ' +
        'of web/ code or data ties the binary to the console source layout. Text both sides need ' +
        'belongs in the top-level locales/ folder.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^web/' },
    },
    {
      name: 'modules-keep-their-repositories',
      comment:
        'A repository (SQL, row mapping) belongs to its module; other modules call that module’s ' +
        'service or listen on the event bus (server/lib/event-bus.ts), so a table can change with ' +
        'one module. $1 is the importing module.',
      severity: 'error',
      from: { path: '^server/modules/([^/]+)/' },
      to: { path: '^server/modules/[^/]+/.*-repository\\.ts$', pathNot: '^server/modules/$1/' },
    },
    {
      name: 'modules-share-only-types',
      comment:
        'A module reaches another one only through the services named in its manifest’s `needs` ' +
        'or through events on the bus; from another module’s files it may import types (a service ' +
        'interface, a row shape), which vanish at run time. Code two modules share that belongs to ' +
        'neither (file readers, payload parsing, refusals) lives in server/lib/. $1 is the importing module.',
      severity: 'error',
      from: { path: '^server/modules/([^/]+)/' },
      to: { path: '^server/modules/[^/]+/', pathNot: '^server/modules/$1/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'contract-imports-only-typebox-and-contract',
      comment:
        'server/contract/ is loaded by the server and bundled into the console (typebox is shimmed ' +
        'there, web/lib/typebox-shim.ts), so it may use only typebox, other contract files and ' +
        'the shared locales/ folder; Node built-ins, server code or other packages would break the ' +
        'browser bundle.',
      severity: 'error',
      from: { path: '^server/contract/' },
      to: { pathNot: ['^server/contract/', '^node_modules/typebox/', '^locales/'] },
    },
    {
      name: 'contract-takes-only-json-or-types-from-locales',
      comment:
        'From locales/ the contract needs the message texts (JSON) and their key types, nothing ' +
        'that runs.',
      severity: 'error',
      from: { path: '^server/contract/' },
      to: { path: '^locales/', pathNot: '\\.json$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-load-time-cycle',
      comment:
        'In a cycle of ES modules one of them runs before the other has finished loading and sees ' +
        'its exports uninitialised (a TDZ error or undefined). `import type` vanishes at run time ' +
        '(oxlint’s typescript/no-import-type-side-effects keeps `import { type X }` from hiding a ' +
        'real edge), and `import()` loads its module later, once both have finished (the lazy ' +
        'pages of web/routes.tsx): a cycle closed only through those is not a load-time cycle.',
      severity: 'error',
      from: {},
      to: {
        circular: true,
        dependencyTypesNot: ['type-only', 'dynamic-import'],
        viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] },
      },
    },
    {
      name: 'no-cycle-in-the-app',
      comment:
        'Beyond load time: in server/ and web/ no two files depend on each other, type imports ' +
        'included, so each file can be read and changed from the ones it imports (the live websocket ' +
        'host and its subscriptions once imported each other in a circle). Lazy pages (dynamic ' +
        'imports of web/routes.tsx) are not dependencies of the table that names them.',
      severity: 'error',
      from: { path: '^(server|web)/' },
      to: {
        circular: true,
        dependencyTypesNot: ['dynamic-import'],
        viaOnly: { dependencyTypesNot: ['dynamic-import'] },
      },
    },
    {
      name: 'realtime-is-a-host',
      comment:
        'The live websocket host serves the commands modules contribute (server/live.ts, each ' +
        "manifest's `live` entry) and imports none of the modules whose data it serves: a new live " +
        'feature is added in its own module, never by editing realtime.',
      severity: 'error',
      from: { path: '^server/modules/realtime/' },
      to: { path: '^server/modules/', pathNot: '^server/modules/realtime/' },
    },
    {
      name: 'resolvable',
      comment:
        'An import these rules cannot resolve is invisible to them; tsc reports real typos, so ' +
        'this fires when the resolution settings below stop matching the project.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript compiler API for dependency-cruiser to parse with; swc does
    // and still tells `import type` from a value import.
    parser: 'swc',
    // Any node_modules, also a helper package's own (tests/helpers/openapi-typegen).
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '^(dist|test-results|coverage)/' },
    // What `moduleResolution: bundler` does: package "exports", `.ts` paths as written.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
