import { makeStyles, ProgressBar, tokens } from '@fluentui/react-components';
import { LANGUAGES, type Language } from '@shared/contract/constants';
import { TransferCentre, TransferWatcher } from '@web/components/transfer-centre';
import { NoticesBell } from '@web/features/notices/notices-bell';
import { AnalyticsConsentBanner } from '@web/features/shell/analytics-consent-banner';
import { AppHeader } from '@web/features/shell/app-header';
import { AuthErrorBanner } from '@web/features/shell/auth-error-banner';
import { MaintenanceBanner } from '@web/features/shell/maintenance-banner';
import { useAnalytics } from '@web/lib/analytics/use-analytics';
import { useAuthState } from '@web/lib/auth';
import { FORM_URL_PARAMS } from '@shared/contract/form-embed';
import { configString, useConfigState } from '@web/lib/config-store';
import { changeLanguage, currentLanguage } from '@web/lib/i18n';
import { mergeHandles } from '@web/lib/route-handle';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLoaderData, useLocation, useMatches, useNavigation } from 'react-router';
import { CONFIG_KEYS } from '@shared/contract/config';
import { THEME_ASSET_PATHS, THEME_PROFILE_KEYS } from '@shared/contract/theme';
import type { RootLoaderData } from './root-loader';
import { InsufficientRightsPage, NotFoundPage } from './status-pages';
import { UnlockProvider } from './unlock-provider';

const useStyles = makeStyles({
  skipLink: {
    position: 'absolute',
    left: '8px',
    top: '-48px',
    zIndex: 1000,
    padding: '8px 12px',
    background: tokens.colorNeutralBackground1,
    color: tokens.colorBrandForegroundLink,
    borderRadius: tokens.borderRadiusMedium,
    ':focus': { top: '8px' },
  },
  main: { padding: '24px 16px', maxWidth: '1200px', margin: '0 auto', outline: 'none' },
  progress: { position: 'fixed', top: 0, left: 0, right: 0, zIndex: 1001 },
});

const DEFAULT_TITLE = 'Kuvert';

/** The application shell around every page (SPEC §2 "Application shell"). */
export function RootLayout() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const { user, loadError } = useAuthState();
  const { config } = useConfigState();
  const matches = useMatches();
  const location = useLocation();
  const navigation = useNavigation();
  const handle = mergeHandles(matches.map((match) => match.handle));
  const loaderData = useLoaderData() as RootLoaderData | null;
  const insufficientRights = loaderData?.insufficientRights === true;
  const notFound = loaderData?.notFound === true;
  // The embeddable public form: `plain=1` drops the header and banners (shared/contract/form-embed.ts).
  const plain = handle.plainAllowed === true && new URLSearchParams(location.search).get(FORM_URL_PARAMS.plain) === '1';
  const language = currentLanguage();
  void i18n.language;
  // Opt-in analytics (web/lib/analytics): nothing at all unless the profile enables it and the visitor allowed it.
  useAnalytics();

  // Locale route parameter switches the language (SPEC §2).
  const localeParam = matches.at(-1)?.params.locale;
  useEffect(() => {
    if (localeParam && (LANGUAGES as readonly string[]).includes(localeParam) && localeParam !== currentLanguage()) {
      void changeLanguage(localeParam as Language);
    }
  }, [localeParam]);

  // Title: configured web UI title followed by the page title (SPEC §2).
  const appTitle = configString(config, CONFIG_KEYS.webUiTitle) || DEFAULT_TITLE;
  const titleKey = notFound ? 'shell:notFound.title' : insufficientRights ? 'shell:insufficientRights.title' : (handle.titleKeyFor?.(new URLSearchParams(location.search)) ?? handle.titleKey);
  const pageTitle = titleKey ? t(titleKey) : '';
  useEffect(() => {
    document.title = pageTitle ? `${appTitle} - ${pageTitle}` : appTitle;
  }, [appTitle, pageTitle]);

  // Logo and favicon follow the theme (server/theme; versioned URLs from the profile).
  const logoUrl = configString(config, THEME_PROFILE_KEYS.logoUrl) || THEME_ASSET_PATHS.logo;
  const faviconUrl = configString(config, THEME_PROFILE_KEYS.faviconUrl);
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (link && faviconUrl) link.href = faviconUrl;
  }, [faviconUrl]);

  // Smooth scroll to the top on navigation (SPEC §2).
  useEffect(() => {
    window.scrollTo({ top: 0, behavior: 'smooth' });
  }, [location.pathname]);

  return (
    <>
      <a href="#main-content" className={styles.skipLink}>
        {t('shell:skipToContent')}
      </a>
      {navigation.state === 'loading' ? <ProgressBar className={styles.progress} aria-label={t('common:loading')} /> : null}
      {plain ? null : <AnalyticsConsentBanner config={config} />}
      {plain ? null : <MaintenanceBanner config={config} language={language} />}
      {loadError && !plain ? <AuthErrorBanner /> : null}
      {plain ? null : <AppHeader title={appTitle} logoUrl={logoUrl} user={handle.layout === 'auth' ? null : user} tools={(className) => (
            <>
              <NoticesBell buttonClassName={className} />
              <TransferCentre buttonClassName={className} />
            </>
          )} />}
      <TransferWatcher />
      <main id="main-content" tabIndex={-1} className={styles.main}>
        <UnlockProvider>{notFound ? <NotFoundPage /> : insufficientRights ? <InsufficientRightsPage /> : <Outlet />}</UnlockProvider>
      </main>
    </>
  );
}
