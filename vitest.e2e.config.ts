import { defineConfig } from 'vitest/config';

/**
 * Tests of the built artefact: the binary's command line (tests/integration/binary.test.ts) and
 * the browser specs (tests/e2e/*.spec.ts, Chromium through playwright-core). `npm run test:e2e`
 * and scripts/test-all.sh build first; tests/helpers/binary.ts builds the binary if it is missing.
 */
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.spec.ts', 'tests/integration/binary.test.ts'],
    environment: 'node',
    // A step may wait up to E2E_TIMEOUT_MS (tests/helpers/e2e-wait.ts) on a loaded machine, and a
    // test takes several steps.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // One browser and a few gateways at a time suit a 2-core machine.
    fileParallelism: false,
  },
});
