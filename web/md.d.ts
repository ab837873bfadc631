/** Markdown files are bundled as text by esbuild (scripts/build.ts, loader `.md`); TypeScript only needs their shape. */
declare module '*.md' {
  const text: string;
  export default text;
}
