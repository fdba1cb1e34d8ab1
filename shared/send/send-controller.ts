import type { ApiClient } from '@shared/api/client';
import type { DeliverySendConfig } from '@shared/contract/config';
import type { Language } from '@shared/contract/constants';
import { isE2eLevel } from '@shared/contract/security-levels';
import type { CreateDeliveryBody, DeliveryDetail, SecurityLevel } from '@shared/contract/deliveries';
import type { CryptoApi, UnlockedKeys } from '@shared/crypto/service';
import { allowedSecurityLevels, checkFiles, checkSendForm, minimalSecurityLevel, validityChoice, type SendFormFile, type SendProblem } from '@shared/rules/send-rules';
import type { SendError } from '@shared/deliveries/send-errors';
import type { ChangedContactKey } from '@shared/transfer/e2e';
import { sendDelivery, type SendProgress, type SendResult } from '@shared/transfer/send-delivery';
import type { UploadSource } from '@shared/transfer/upload';

/**
 * The headless send controller (shared/send/README.md): one send form's state and steps, used by
 * the web send page and the add-in send screen as views (through `useSendController`). It holds
 * the fields, checks them with the SPEC §5 rules of shared/deliveries, picks the levels the send
 * config allows (the minimal one preselected), asks for the sender's unlocked SecuPass keys at
 * levels 3/4, and hands the checked draft to a `deliver` step — `deliverWithEngine` uploads
 * through shared/transfer with progress and the E2E key steps in the crypto Worker; the web client
 * hands it to its transfer centre instead. Framework-free: a store with `getState`/`subscribe`.
 */

/** A file as the controller keeps it: what the rules need, plus whatever the view carries along (a `File`, an Outlook attachment). */
export interface SendControllerFile {
  name: string;
  size: number;
  /** The declared type (`File.type`; '' or absent = unknown). */
  type?: string;
}

export interface SendFields<F extends SendControllerFile = SendControllerFile> {
  recipients: string[];
  /** cc/bcc of the add-in's mail; the web form has none. */
  additionalRecipients: string[];
  subject: string;
  body: string;
  files: F[];
  /** The validity field's text (range only): '' = the default, else a whole number of days. */
  validityText: string;
  level: SecurityLevel | undefined;
}

/** `unlocking`: waiting for the keys (levels 3/4); `sending`: the deliver step runs. */
export type SendPhase = 'editing' | 'unlocking' | 'sending' | 'sent' | 'failed';

export interface SendControllerState<F extends SendControllerFile = SendControllerFile> {
  fields: SendFields<F>;
  /** Send was tried once: the views show every problem from now on (file problems show at once). */
  submitted: boolean;
  phase: SendPhase;
  /** Every §5 problem of the fields as they are. */
  problems: SendProblem[];
  /** The file rules alone (name, size, forbidden type): shown as soon as a file is added. */
  fileProblems: SendProblem[];
  /** The levels the send config allows, lowest first. */
  allowedLevels: SecurityLevel[];
  /** What the validity field offers. */
  validity: ReturnType<typeof validityChoice>;
  /** The chosen level encrypts end to end: the sender's keys are needed before anything is sent. */
  needsKeys: boolean;
  /** The upload's progress while `deliverWithEngine` runs (null before and after a handover). */
  progress: SendProgress | null;
  /** Why the last send failed (phase `failed`). */
  error: SendError | null;
  /** The sent delivery (phase `sent`). */
  delivery: DeliveryDetail | null;
}

/** What a deliver step gets: the checked draft, the files and (levels 3/4) the unlocked keys. */
export interface DeliverRequest<F extends SendControllerFile = SendControllerFile> {
  draft: CreateDeliveryBody;
  files: F[];
  keys: UnlockedKeys | null;
  /** Progress for the controller's state (the views' bars). */
  report(progress: SendProgress): void;
}

/** A deliver step's answer: the engine's result, or `handedOver` when something else (the web's transfer centre) follows the send from now on. */
export type DeliverOutcome = SendResult | 'handedOver';

export interface SubmitSteps<F extends SendControllerFile = SendControllerFile> {
  /** Levels 3/4: the sender's unlocked keys, asking for the passphrase when locked; null = the user cancelled. */
  unlockKeys(): Promise<UnlockedKeys | null>;
  deliver(request: DeliverRequest<F>): Promise<DeliverOutcome>;
}

export type SubmitOutcome =
  | { kind: 'invalid'; problems: SendProblem[] }
  /** A send is already under way. */
  | { kind: 'busy' }
  /** The passphrase dialog was cancelled: nothing was sent. */
  | { kind: 'cancelled' }
  | { kind: 'handedOver'; keys: UnlockedKeys | null }
  | { kind: 'sent'; delivery: DeliveryDetail }
  | { kind: 'failed'; error: SendError }
  /** The deliver step threw (e.g. an Outlook attachment could not be read): nothing was sent. */
  | { kind: 'thrown'; cause: unknown };

export interface SendControllerOptions<F extends SendControllerFile = SendControllerFile> {
  config: DeliverySendConfig;
  /** Prefilled fields (Reply, a restored draft, the Outlook mail); a level the config does not allow falls back to the minimal one. */
  initial?: Partial<SendFields<F>>;
  /** Language of the notification mails to unregistered recipients (the web client's UI language at the time of sending). */
  language?: () => Language;
}

export interface SendController<F extends SendControllerFile = SendControllerFile> {
  getState(): SendControllerState<F>;
  subscribe(listener: () => void): () => void;
  update(patch: Partial<SendFields<F>>): void;
  addFiles(files: readonly F[]): void;
  removeFile(index: number): void;
  /** Empties the form (Discard draft); `fields` prefill it again. */
  reset(fields?: Partial<SendFields<F>>): void;
  /** Marks the form as tried and returns its problems (empty = it may be sent). */
  validate(): SendProblem[];
  /** The body of POST /deliveries for the fields as they are. */
  draft(): CreateDeliveryBody;
  /** Validate → keys (levels 3/4) → deliver; the state follows each step. */
  submit(steps: SubmitSteps<F>): Promise<SubmitOutcome>;
}

/** A file as the §5 rules see it: the declared type is what the upload will send (also the dar send page's early checks). */
export const ruleFile = (file: SendControllerFile): SendFormFile => ({ name: file.name, size: file.size, ...(file.type ? { mimeType: file.type } : {}) });

/** The validity field's text → what the rules see: empty = the default, anything else a number (not one = out of range). */
export function parseValidityText(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isInteger(value) ? value : -1;
}

export const isEndToEndLevel = (level: SecurityLevel | undefined): boolean => level !== undefined && isE2eLevel(level);

const EMPTY: SendFields = { recipients: [], additionalRecipients: [], subject: '', body: '', files: [], validityText: '', level: undefined };

export function createSendController<F extends SendControllerFile = SendControllerFile>({ config, initial, language }: SendControllerOptions<F>): SendController<F> {
  const allowedLevels = allowedSecurityLevels(config);
  const validity = validityChoice(config);
  const listeners = new Set<() => void>();

  const fieldsFrom = (prefill: Partial<SendFields<F>> = {}): SendFields<F> => {
    const fields = { ...(EMPTY as SendFields<F>), ...prefill };
    return { ...fields, level: fields.level !== undefined && allowedLevels.includes(fields.level) ? fields.level : minimalSecurityLevel(config) };
  };
  const validityDays = (fields: SendFields<F>) => (validity.kind === 'range' ? parseValidityText(fields.validityText) : undefined);
  const derive = (fields: SendFields<F>, rest: Pick<SendControllerState<F>, 'submitted' | 'phase' | 'progress' | 'error' | 'delivery'>): SendControllerState<F> => {
    const days = validityDays(fields);
    const problems = checkSendForm(
      {
        recipients: fields.recipients,
        additionalRecipients: fields.additionalRecipients,
        subject: fields.subject,
        body: fields.body,
        files: fields.files.map(ruleFile),
        ...(days === undefined ? {} : { validityDays: days }),
        ...(fields.level === undefined ? {} : { securityLevel: fields.level }),
      },
      config,
    );
    return { ...rest, fields, problems, fileProblems: checkFiles(fields.files.map(ruleFile), config.filePolicy), allowedLevels, validity, needsKeys: isEndToEndLevel(fields.level) };
  };

  let state = derive(fieldsFrom(initial), { submitted: false, phase: 'editing', progress: null, error: null, delivery: null });
  const set = (next: SendControllerState<F>) => {
    state = next;
    for (const listener of [...listeners]) listener();
  };
  const setFields = (fields: SendFields<F>) => set(derive(fields, state));
  const setPhase = (patch: Partial<Pick<SendControllerState<F>, 'phase' | 'progress' | 'error' | 'delivery'>>) => set({ ...state, ...patch });
  const busy = () => state.phase === 'unlocking' || state.phase === 'sending';

  const controller: SendController<F> = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    update: (patch) => setFields({ ...state.fields, ...patch }),
    addFiles: (files) => setFiles([...state.fields.files, ...files]),
    removeFile: (index) => setFiles(state.fields.files.filter((_, i) => i !== index)),
    reset(fields) {
      set(derive(fieldsFrom(fields), { submitted: false, phase: 'editing', progress: null, error: null, delivery: null }));
    },
    validate() {
      if (!state.submitted) set({ ...state, submitted: true });
      return state.problems;
    },
    draft() {
      const { fields } = state;
      const days = validityDays(fields);
      return {
        recipients: fields.recipients,
        ...(fields.additionalRecipients.length > 0 ? { additionalRecipients: fields.additionalRecipients } : {}),
        subject: fields.subject,
        body: fields.body,
        ...(days === undefined ? {} : { validityDays: days }),
        ...(fields.level === undefined ? {} : { securityLevel: fields.level }),
        ...(language ? { language: language() } : {}),
      };
    },
    async submit(steps) {
      if (busy()) return { kind: 'busy' };
      const problems = controller.validate();
      if (problems.length > 0) return { kind: 'invalid', problems };
      const draft = controller.draft();
      const files = state.fields.files;
      let keys: UnlockedKeys | null = null;
      if (state.needsKeys) {
        setPhase({ phase: 'unlocking', error: null });
        keys = await steps.unlockKeys().catch(() => null);
        if (!keys) {
          setPhase({ phase: 'editing' });
          return { kind: 'cancelled' };
        }
      }
      setPhase({ phase: 'sending', error: null, delivery: null, progress: { phase: 'draft', files: [], bytesSent: 0, totalBytes: 0, percent: 0 } });
      let outcome: DeliverOutcome;
      try {
        outcome = await steps.deliver({ draft, files, keys, report: (progress) => setPhase({ progress }) });
      } catch (cause) {
        setPhase({ phase: 'failed', progress: null });
        return { kind: 'thrown', cause };
      }
      if (outcome === 'handedOver') {
        setPhase({ phase: 'editing', progress: null });
        return { kind: 'handedOver', keys };
      }
      if (outcome.ok) {
        setPhase({ phase: 'sent', delivery: outcome.delivery });
        return { kind: 'sent', delivery: outcome.delivery };
      }
      setPhase({ phase: 'failed', error: outcome.error, progress: state.progress && { ...state.progress, phase: 'failed' } });
      return { kind: 'failed', error: outcome.error };
    },
  };
  function setFiles(files: F[]) {
    setFields({ ...state.fields, files });
  }
  return controller;
}

export interface EngineDeliverOptions<F extends SendControllerFile> {
  client: ApiClient;
  /** The crypto Worker's proxy (levels 3/4: files are encrypted there, keys wrapped to every reader). */
  crypto: CryptoApi;
  /** The bytes of each file, read when the send starts (the add-in reads Outlook's attachments only now). */
  sources(files: F[]): Promise<UploadSource[]>;
  /** Levels 3/4: asks about a recipient key that differs from its pin; absent = such a send stops with `keyChanged`. */
  confirmChangedKey?: (change: ChangedContactKey) => Promise<boolean>;
  signal?: AbortSignal;
}

/** The deliver step that sends through shared/transfer itself: upload with progress, the E2E key steps in the crypto Worker. */
export function deliverWithEngine<F extends SendControllerFile>({ client, crypto, sources, confirmChangedKey, signal }: EngineDeliverOptions<F>) {
  return async ({ draft, files, keys, report }: DeliverRequest<F>): Promise<SendResult> =>
    sendDelivery({
      client,
      draft,
      files: await sources(files),
      onProgress: report,
      ...(signal ? { signal } : {}),
      ...(keys ? { e2e: { crypto, keys, ...(confirmChangedKey ? { confirmChangedKey } : {}) } } : {}),
    });
}
