/**
 * The one timeout of every e2e wait. Steps wait for a state a user would wait for (a row, a count,
 * a toast), never for a fixed time; this is how long that state may take to show on a loaded
 * 2-core CI machine running other gateways and a browser beside this one, before the step fails.
 * A passing step returns as soon as the state shows, so a generous value costs nothing.
 */
export const E2E_TIMEOUT_MS = 30_000;

/**
 * Options of every `expect.poll` in tests/e2e (its default gives up after 1 s):
 * `expect.poll(fn, E2E_POLL)`. tests/unit/e2e-waits.test.ts fails on a poll without it.
 */
export const E2E_POLL = { timeout: E2E_TIMEOUT_MS, interval: 250 } as const;
