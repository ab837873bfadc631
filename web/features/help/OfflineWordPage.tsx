/**
 * The gateway's offline manual: a gateway's LAN often has no internet, so the help the workbench
 * links to ships inside the binary (locales/<lang>/manual.md, manualSource.ts). Commands carry this
 * gateway's host and device ports (GET /api/yt/device_access). A search box filters the sections
 * and marks the term; `/offline-word#<anchor>` opens at a section or subsection.
 */
import { useEffect, useMemo, useRef, useState, type JSX } from 'react';
import Input from '@arco-design/web-react/es/Input';
import Spin from '@arco-design/web-react/es/Spin';
import IconSearch from '@arco-design/web-react/icon/react-icon/IconSearch';
import { useTranslation } from 'react-i18next';
import type { DeviceAccess } from '../../../server/contract/device-access.ts';
import { GATEWAY_CERTIFICATE_FILE } from '../../../server/contract/device-access.ts';
import { useSettings } from '../../stores/settings.ts';
import { loadDeviceAccess } from '../device/deviceAccessApi.ts';
import { parseSections, type Section } from './markdown.ts';
import { loadManual } from './manualSource.ts';
import { highlight, ManualBlocks } from './ManualText.tsx';
import './manual.css';

/** The device ports, or 'failed' when they could not be read (the commands then show placeholders). */
function useAccess(): DeviceAccess | 'failed' | null {
  const [access, setAccess] = useState<DeviceAccess | 'failed' | null>(null);
  useEffect(() => {
    let live = true;
    loadDeviceAccess().then(
      (a) => live && setAccess(a),
      () => live && setAccess('failed'),
    );
    return () => {
      live = false;
    };
  }, []);
  return access;
}

function scrollToHash(): void {
  const id = decodeURIComponent(window.location.hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  if (!target) return;
  target.scrollIntoView({ block: 'start' });
  target.focus({ preventScroll: true });
}

export function OfflineWordPage(): JSX.Element {
  const { t } = useTranslation('manual');
  const language = useSettings((s) => s.language);
  const access = useAccess();
  const [source, setSource] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const scrolled = useRef(false);

  useEffect(() => {
    let live = true;
    loadManual(language).then(
      (text) => live && setSource(text),
      () => live && setSource(''),
    );
    return () => {
      live = false;
    };
  }, [language]);

  const sections = useMemo<Section[]>(() => {
    if (source === null || access === null) return [];
    const { protocol, host, hostname } = window.location;
    const known = access === 'failed' ? null : access;
    return parseSections(source, {
      host: hostname,
      base: `${protocol}//${host}`,
      mqttPort: known ? String(known.mqttPort) : '<MQTT_PORT>',
      mqttsPort: known?.mqttsPort ? String(known.mqttsPort) : '<MQTTS_PORT>',
      tlsState: !known ? t('tlsUnknown') : known.mqttsPort ? t('tlsOn', { port: known.mqttsPort }) : t('tlsOff'),
      caFile: GATEWAY_CERTIFICATE_FILE,
    });
  }, [source, access, t]);

  const term = query.trim().toLowerCase();
  const shown = term ? sections.filter((s) => s.searchText.includes(term)) : sections;

  // Opens at the anchor once the text is there, and again when a link inside the page changes it.
  useEffect(() => {
    if (sections.length === 0) return;
    if (!scrolled.current) {
      scrolled.current = true;
      scrollToHash();
    }
    window.addEventListener('hashchange', scrollToHash);
    return () => window.removeEventListener('hashchange', scrollToHash);
  }, [sections]);

  if (source === null || access === null) return <Spin className="ec-manual__loading" />;

  return (
    <div className="ec-manual" data-testid="manual">
      <div className="ec-manual__search" role="search">
        <Input
          allowClear
          prefix={<IconSearch />}
          value={query}
          onChange={setQuery}
          placeholder={t('searchPlaceholder')}
          aria-label={t('searchLabel')}
          onPressEnter={() => {
            const first = shown[0];
            if (first) document.getElementById(first.id)?.scrollIntoView({ block: 'start' });
          }}
          data-testid="manual-search"
        />
        <span className="ec-manual__count" aria-live="polite" data-testid="manual-search-count">
          {term ? (shown.length ? t('matches', { count: shown.length }) : t('noMatch')) : ''}
        </span>
      </div>
      <div className="ec-manual__body">
        <nav className="ec-manual__toc" aria-label={t('toc')}>
          <ul>
            {shown.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`} data-testid={`manual-toc-${s.id}`}>
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <article className="ec-manual__content">
          {shown.map((s) => (
            <section key={s.id} className="ec-manual__section" aria-labelledby={s.id} data-testid={`manual-section-${s.id}`}>
              <h2 id={s.id} tabIndex={-1} className="ec-manual__title">
                {highlight(s.title, term)}
              </h2>
              <ManualBlocks blocks={s.blocks} term={term} />
            </section>
          ))}
          {term && shown.length === 0 ? (
            <p className="ec-manual__empty" data-testid="manual-no-match">
              {t('noMatchHint', { query: query.trim() })}
            </p>
          ) : null}
        </article>
      </div>
    </div>
  );
}
