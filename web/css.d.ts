/** Stylesheets are bundled by esbuild (side-effect imports); TypeScript only needs to know they exist. */
declare module '*.css';
