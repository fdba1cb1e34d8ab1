import type { ReportKind } from '@shared/contract/reports';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/** SPEC §9 tracked actions of the reports page. */
export type ReportAction = 'report requested' | 'report downloaded';

const ACTION_NAMES = { 'report requested': ANALYTICS_ACTIONS.reportRequested, 'report downloaded': ANALYTICS_ACTIONS.reportDownloaded } as const;

/**
 * The one call site of the reports page's analytics actions, through the opt-in analytics module
 * (web/lib/analytics): nothing is loaded or sent unless `ftapi.pip.config.pip.enabled`.
 */
export function trackReportAction(action: ReportAction, report: ReportKind | 'all'): void {
  track(ACTION_NAMES[action], { report });
}
