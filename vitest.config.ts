import { configDefaults, defineConfig, type Plugin } from 'vitest/config';

/** Migrations are imported as text, exactly as esbuild's `text` loader does for the binary. */
const sqlAsText: Plugin = {
  name: 'sql-as-text',
  transform(code, id) {
    if (id.endsWith('.sql')) return { code: `export default ${JSON.stringify(code)};`, map: null };
    return undefined;
  },
};

export default defineConfig({
  plugins: [sqlAsText],
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/web/**/*.test.{ts,tsx}'],
    // Needs the built binary: runs in vitest.e2e.config.ts after the build.
    exclude: [...configDefaults.exclude, 'tests/integration/binary.test.ts'],
    environment: 'node',
    // Limits for a stuck test, not speed checks: a loaded 2-core CI machine made 22 password
    // checks through the proxy test take 29 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
