import { useAuthState } from '@web/lib/auth';
import { useConfigState } from '@web/lib/config-store';
import { useEffect, useMemo } from 'react';
import { useLocation } from 'react-router';
import { syncAnalytics, trackPageView } from './analytics';
import { analyticsSettings } from './settings';

/** The shell's part: starts analytics when the profile enables it, follows the user, reports page views. */
export function useAnalytics(): void {
  const { status, config } = useConfigState();
  const { user } = useAuthState();
  const settings = useMemo(() => (status === 'loaded' ? analyticsSettings(config) : null), [status, config]);
  const userUuid = user?.uuid ?? null;
  const { pathname } = useLocation();

  useEffect(() => {
    void syncAnalytics(settings, userUuid);
  }, [settings, userUuid]);

  useEffect(() => {
    if (settings) trackPageView(pathname);
  }, [settings, pathname]);
}
