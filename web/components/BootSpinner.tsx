/**
 * The full-page loading indicator; the same markup index.html shows before the script runs, and
 * styled by index.html's <style> so it looks the same before and after the app takes over.
 */
import type { JSX } from 'react';
import { useTranslation } from 'react-i18next';

export function BootSpinner(): JSX.Element {
  const { t } = useTranslation('common');
  return (
    <div className="boot-spinner" role="status" aria-label={t('loading')}>
      <span />
    </div>
  );
}
