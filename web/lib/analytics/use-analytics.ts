import { useAuthState } from '@web/lib/auth';
import { useConfigState } from '@web/lib/config-store';
import { useEffect, useMemo } from 'react';
import { useLocation } from 'react-router';
import { pauseAnalytics, syncAnalytics, trackPageView } from './analytics';
import { useAnalyticsConsent } from './consent';
import { analyticsSettings } from './settings';

/**
 * The shell's part: starts analytics when the profile enables it and the visitor allowed it
 * (consent.ts), follows the user, reports page views; a withdrawn consent pauses it at once.
 */
export function useAnalytics(): void {
  const { status, config } = useConfigState();
  const { user } = useAuthState();
  const consent = useAnalyticsConsent();
  const settings = useMemo(() => (status === 'loaded' && consent === 'granted' ? analyticsSettings(config) : null), [status, config, consent]);
  const userUuid = user?.uuid ?? null;
  const { pathname } = useLocation();

  useEffect(() => {
    if (consent === 'denied') pauseAnalytics();
  }, [consent]);

  useEffect(() => {
    void syncAnalytics(settings, userUuid);
  }, [settings, userUuid]);

  useEffect(() => {
    if (settings) trackPageView(pathname);
  }, [settings, pathname]);
}
