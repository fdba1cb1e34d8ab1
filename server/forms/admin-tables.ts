import type { Generated } from 'kysely';

/** Tables of form administration (migration 0035), merged into the core's `Database` type. */
export interface FormUserLinkTable {
  form_id: number;
  user_id: number;
}

export interface FormHistoryTable {
  id: Generated<number>;
  form_uuid: string;
  user_id: number | null;
  actor_email: string;
  action: string;
  changes: string;
  created_at: number;
}

export interface FormAdminTables {
  form_editors: FormUserLinkTable;
  form_submitters: FormUserLinkTable;
  form_history: FormHistoryTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Database extends FormAdminTables {}
}
