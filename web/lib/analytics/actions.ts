/**
 * The actions Kuvert tracks when analytics is enabled (SPEC §9 "tracked actions"; the names are
 * ours, SPEC leaves them open). Other features import the name they report and call `track()`
 * from `web/lib/analytics/analytics.ts`. Properties never carry content, names or addresses.
 */
export const ANALYTICS_ACTIONS = {
  /** Every route change; property `page`: the route pattern (ids replaced), never the query or fragment. */
  pageViewed: 'Page Viewed',
  /** Help opened; property `kind`: `widget` or `bundled`. */
  helpOpened: 'Help Opened',
  /** A delivery was sent; properties `files` (how many) and `encrypted` (end-to-end or not). */
  deliverySent: 'Delivery Sent',
  /** A report was requested (Reports page); property `report`: its id. */
  reportRequested: 'Report Requested',
  /** A report's CSV was downloaded; property `report`: its id. */
  reportDownloaded: 'Report Downloaded',
  /** SPEC §9 "DAR button": the send of a data-room request's answer (dar send page); property `files`. */
  darButton: 'DAR Button',
  /** SPEC §9 "deletion period changed": a room's retention policy saved; properties `enabled`, `days` (0: none). */
  deletionPeriodChanged: 'Deletion Period Changed',
} as const;

export type AnalyticsAction = (typeof ANALYTICS_ACTIONS)[keyof typeof ANALYTICS_ACTIONS];
export type AnalyticsProperties = Readonly<Record<string, string | number | boolean>>;
