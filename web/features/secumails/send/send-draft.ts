import type { SecurityLevel } from '@shared/contract/deliveries';

/**
 * The send form's unsent draft while the user is elsewhere in the app (e.g. setting the SecuPass
 * from the level-3/4 dialog): kept in this module's memory for the page's life — the picked
 * `File`s too, which no storage can hold. A reload or another tab starts with an empty form.
 */
export interface SendDraft {
  recipients: string[];
  subject: string;
  body: string;
  validityText: string;
  level: SecurityLevel | undefined;
  files: File[];
  phones: Record<string, string>;
}

let kept: SendDraft | null = null;

export const isEmptyDraft = (draft: SendDraft) => draft.recipients.length === 0 && draft.subject.trim() === '' && draft.body.trim() === '' && draft.files.length === 0;

export const sendDraftStore = {
  /** The kept draft, if any (no side effect: the form reads it in a state initializer). */
  peek: (): SendDraft | null => kept,
  keep(draft: SendDraft): void {
    kept = isEmptyDraft(draft) ? null : draft;
  },
  clear(): void {
    kept = null;
  },
};
