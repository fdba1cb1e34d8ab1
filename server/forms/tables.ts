import type { Generated } from 'kysely';

/** Tables of web forms (migration 0027), merged into the core's `Database` type. Times epoch ms, flags 0/1. */
export interface FormsTable {
  id: Generated<number>;
  uuid: string;
  name: string;
  name_key: string;
  url: string;
  active: number;
  security_level: number;
  captcha: number;
  only_authenticated: number;
  mandatory_recipients: string;
  optional_recipients: string;
  sender_user_id: number | null;
  disclaimer_enabled: number;
  disclaimer_text: string;
  layout: string;
  translations: string;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  /** Migration 0035: JSON of the administration settings (server/forms/admin-settings.ts). */
  admin: Generated<string>;
}

export interface FormCustomFieldsTable {
  id: Generated<number>;
  form_id: number;
  position: number;
  name: string;
  type: string;
  required: number;
  settings: string;
}

export interface FormSubmissionsTable {
  id: Generated<number>;
  form_id: number | null;
  delivery_id: number | null;
  /** The limited session the submission opened (sessions.id). */
  session_id: string;
  created_at: number;
  /** Migration 0044 (./submission-completion.ts): the confirmation mail's address and language, mailed at completion. */
  confirmation_to: string | null;
  language: string | null;
  /** When the delivery was sent (null: still open, or abandoned). */
  completed_at: number | null;
  confirmation_sent_at: number | null;
  /** Levels 3/4: the per-submission submitter account, and when it was disabled. */
  submitter_user_id: number | null;
  account_closed_at: number | null;
  /** Migration 0064: the values the confirmation text's placeholders need (JSON), while its mail is due. */
  confirmation_values: string | null;
  /** Migration 0073: levels 1/2, the values as the export shows them (JSON name → text); null otherwise. */
  submission_values: string | null;
  /** Migration 0073: the signed-in submitter of an only-authenticated form. */
  submitter_email: string | null;
}

export interface FormTables {
  forms: FormsTable;
  form_custom_fields: FormCustomFieldsTable;
  form_submissions: FormSubmissionsTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Database extends FormTables {}
}
