import type { ReportKind } from '@shared/contract/reports';

/** SPEC §9 tracked actions of the reports page. */
export type ReportAction = 'report requested' | 'report downloaded';

/** The window event the opt-in analytics module (issue 17 §4) listens to; nothing else reads it. */
export const ANALYTICS_EVENT = 'kuvert:analytics';

/**
 * The one call site of the reports page's analytics actions. It only announces the action as a
 * window event `kuvert:analytics` ({ action, properties }); whether anything is sent is the
 * analytics module's decision (off unless `ftapi.pip.config.pip.enabled`, DESIGN §9). Without
 * that module nothing listens and nothing leaves the browser.
 */
export function trackReportAction(action: ReportAction, report: ReportKind | 'all'): void {
  window.dispatchEvent(new CustomEvent(ANALYTICS_EVENT, { detail: { action, properties: { report } } }));
}
