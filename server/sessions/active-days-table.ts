/** Migration 0025: a user was active on a UTC day (`day` = epoch ms / 86 400 000). */
export interface UserActiveDaysTable {
  day: number;
  user_id: number;
}

export interface ReportTables {
  user_active_days: UserActiveDaysTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Database extends ReportTables {}
}
