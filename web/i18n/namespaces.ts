/**
 * Every locale namespace, at run time (the parity check keeps this list equal to the JSON files).
 * The console layout loads them all when it mounts: under preact a component that suspends for a
 * namespace inside an already-mounted form or dialog loses that form's state, so nothing inside the
 * signed-in console may wait for text after the layout is up.
 */
export const namespaces = [
  'auth',
  'category',
  'command',
  'common',
  'credentials',
  'device',
  'deviceImport',
  'errors',
  'event',
  'exception',
  'guide',
  'http',
  'layout',
  'license',
  'menu',
  'organization',
  'product',
  'profile',
  'settings',
  'table',
  'telemetry',
  'thingModel',
  'workbench',
] as const;
