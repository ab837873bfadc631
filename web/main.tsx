/**
 * Browser entry: apply the stored theme before the first paint, load the stored language, then
 * render the app. Settings changes (drawer, popover, login page) re-apply theme and language.
 */
import './styles/arco.ts';
import './styles/app.css';
import './styles/contrast.css';
import './styles/narrow.css';
import { Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BootSpinner } from './components/BootSpinner.tsx';
import { App } from './App.tsx';
import { changeLanguage, initI18n, isLanguage } from './i18n/i18n.ts';
import { DEFAULT_LANGUAGE } from '../server/contract/languages.ts';
import { applyTheme } from './lib/theme.ts';
import { installArcoAriaFixes } from './lib/arco-aria.ts';
import { installLeaveAsker } from './lib/navigation.ts';
import { useSettings } from './stores/settings.ts';

async function start(): Promise<void> {
  const settings = useSettings.getState();
  applyTheme(settings);
  useSettings.subscribe((next, prev) => {
    applyTheme(next);
    if (next.language !== prev.language && isLanguage(next.language)) void changeLanguage(next.language);
  });
  installLeaveAsker();
  await initI18n(isLanguage(settings.language) ? settings.language : DEFAULT_LANGUAGE);
  installArcoAriaFixes();
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root');
  container.textContent = '';
  // Locale namespaces load on first use (i18n.ts): any component may suspend until its text arrives.
  createRoot(container).render(
    <Suspense fallback={<BootSpinner />}>
      <App />
    </Suspense>,
  );
}

void start();
