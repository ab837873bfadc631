/**
 * The login page's banners (operation management; enabled ones by sort, public): one at a time,
 * advancing every few seconds, with a dot per banner to pick one. A banner with a link opens it:
 * a web address in a new tab, a console path in this one. Hand-made rather than Arco's Carousel
 * to keep the login page's chunk small, and loaded only when there are banners (useLoginBanners.ts
 * asks first), so the login page's first load stays within its budget.
 */
import { useEffect, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import type { ShownEntry } from '../../../server/contract/operation.ts';
import './login-banners.css';

const ADVANCE_MS = 6000;

function Slide({ banner }: { banner: ShownEntry }): JSX.Element {
  const image = <img src={banner.image} alt={banner.name} />;
  const caption = <span className="ec-login-banner__name">{banner.name}</span>;
  if (!banner.url) {
    return (
      <div className="ec-login-banner__slide" data-testid={`login-banner-${banner.id}`}>
        {image}
        {caption}
      </div>
    );
  }
  const external = /^https?:\/\//.test(banner.url);
  return (
    <a
      className="ec-login-banner__slide"
      href={banner.url}
      target={external ? '_blank' : undefined}
      rel={external ? 'noopener noreferrer' : undefined}
      data-testid={`login-banner-${banner.id}`}
    >
      {image}
      {caption}
    </a>
  );
}

export function LoginBanners({ banners }: { banners: ShownEntry[] }): JSX.Element {
  // The login page's own namespace: loading another one here would suspend the mounted form.
  const { t } = useTranslation('auth');
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const count = banners.length;
  useEffect(() => {
    if (count < 2 || paused) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % count), ADVANCE_MS);
    return () => clearInterval(timer);
  }, [count, paused]);
  const shown = banners[Math.min(index, count - 1)];
  return (
    <section
      className="ec-login-banner"
      aria-label={t('banners')}
      aria-roledescription="carousel"
      data-testid="login-banners"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      {shown ? <Slide key={shown.id} banner={shown} /> : null}
      {count > 1 ? (
        <div className="ec-login-banner__dots">
          {banners.map((b, i) => (
            <button
              key={b.id}
              type="button"
              className={i === index ? 'ec-login-banner__dot ec-login-banner__dot--active' : 'ec-login-banner__dot'}
              aria-label={b.name}
              aria-current={i === index ? 'true' : undefined}
              onClick={() => setIndex(i)}
            />
          ))}
        </div>
      ) : null}
    </section>
  );
}
