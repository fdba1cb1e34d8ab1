import type { Generated } from 'kysely';

/** Tables of Flows (migration 0037), merged into the core's `Database` type. Times epoch ms, flags 0/1. */
export interface FormFlowsTable {
  form_id: number;
  enabled: number;
  /** Empty: no webhook. */
  webhook_url: string;
  /** Sealed by the server's secret box (`form_flows.secret`, bound to the form id); null until made. */
  secret: string | null;
  secret_created_at: number | null;
  updated_at: number;
}

export interface FlowHandOffsTable {
  id: Generated<number>;
  uuid: string;
  form_id: number | null;
  form_name: string;
  delivery_id: number | null;
  delivery_uuid: string;
  security_level: number;
  /** HandOffState (shared/contract/flows.ts). */
  state: string;
  attempts: number;
  last_error: string | null;
  /** submission.json text (levels 1–2), null at levels 3/4. */
  submission: string | null;
  /** delivery_files.uuid of the attached submission.json, once attached. */
  file_uuid: string | null;
  search_text: string;
  created_at: number;
  sent_at: number | null;
  last_attempt_at: number | null;
  delivered_at: number | null;
}

export interface FlowTables {
  form_flows: FormFlowsTable;
  flow_hand_offs: FlowHandOffsTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Database extends FlowTables {}
}
