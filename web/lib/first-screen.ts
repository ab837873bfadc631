/**
 * What the first screen of nearly every visit (sign-in) is built from. The web build imports this
 * module from the entry and from every lazily loaded module (scripts/web-build-plugins.ts,
 * `oneFirstScreenChunk`): esbuild groups modules by the set of entry points that reach them, and
 * with every entry reaching these they become one chunk instead of dozens of small ones split off
 * by each page that shares a piece (which compress worse: +10 KB gzip on the sign-in page).
 * Every page loads the entry, so no page downloads more than before.
 */
import { LoginPage } from '../features/auth/LoginPage.tsx';

// A side effect keeps the module graph live; an unused import would be tree-shaken away.
(globalThis as Record<string, unknown>).__edgeFirstScreen = LoginPage;
