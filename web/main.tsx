// Placeholder entry written by the build work so the pipeline (code splitting, index.html,
// binary) runs before the console shell exists; the web app replaces this file.
import { lazy, Suspense } from 'react';
import { createRoot } from 'react-dom/client';

const LoginPage = lazy(() => import('./features/auth/LoginPage.tsx').then((m) => ({ default: m.LoginPage })));

createRoot(document.getElementById('root')!).render(
  <Suspense fallback={null}>
    <LoginPage />
  </Suspense>,
);
