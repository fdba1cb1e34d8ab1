/// <reference types="office-js" />
/**
 * The only module that touches the `Office` global (DESIGN §1): office.js callbacks wrapped in
 * typed promises. Everything else in the add-in gets an `OfficeHost`.
 */

export interface ComposeRecipients {
  to: string[];
  cc: string[];
  bcc: string[];
}

export interface ComposeAttachment {
  id: string;
  name: string;
  size: number;
  isInline: boolean;
  /** `file` (bytes), `item` (an attached mail, read as .eml), `cloud` (a link: not readable). */
  kind: 'file' | 'item' | 'cloud';
}

export type HostMode = 'compose' | 'read' | 'none';

export interface OfficeHost {
  mode: HostMode;
  /** Outlook's display language (e.g. `de-DE`); the pane follows it. */
  displayLanguage: string;
  getRecipients(): Promise<ComposeRecipients>;
  getSubject(): Promise<string>;
  /** The body as plain text. */
  getBody(): Promise<string>;
  getAttachments(): Promise<ComposeAttachment[]>;
  getAttachmentContent(attachment: ComposeAttachment): Promise<Blob>;
  /** An info bar on the item (Outlook shows it above the mail). */
  notify(kind: 'info' | 'error', message: string): Promise<void>;
  /**
   * After a successful send: empties the recipients, replaces the body with `notice` and
   * closes the compose item, so Outlook never sends the plain mail.
   */
  replaceAndClose(notice: string): Promise<void>;
  /** Opens `url` in an Office dialog; resolves with the first message the page sends back. */
  openDialog(url: string): Promise<string>;
  /** Opens `url` in the user's browser (outside Outlook), e.g. a web-client page the pane cannot show. */
  openBrowserWindow(url: string): void;
}

class OfficeCallError extends Error {
  override readonly name = 'OfficeCallError';
  constructor(
    message: string,
    readonly code: number | undefined,
  ) {
    super(message);
  }
}

/** office.js "async" calls take a callback with an AsyncResult; this turns one into a promise. */
function call<T>(run: (callback: (result: Office.AsyncResult<T>) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    run((result) => {
      if (result.status === Office.AsyncResultStatus.Succeeded) resolve(result.value);
      else reject(new OfficeCallError(result.error?.message ?? 'Office call failed', result.error?.code));
    });
  });
}

const NOTICE_KEY = 'kuvert';

function addresses(details: Office.EmailAddressDetails[]): string[] {
  return details.map((d) => d.emailAddress).filter((a): a is string => typeof a === 'string' && a !== '');
}

function base64ToBlob(base64: string, type: string): Blob {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type });
}

function createHost(info: Office.Context): OfficeHost {
  const mailbox = info.mailbox;
  const item = mailbox?.item as (Office.MessageCompose & Office.MessageRead) | undefined;
  // Compose items have getAsync on their recipients; read items hold plain arrays.
  const compose = item !== undefined && typeof (item.to as Office.Recipients | undefined)?.getAsync === 'function';
  const mode: HostMode = !item ? 'none' : compose ? 'compose' : 'read';
  const composeItem = () => {
    if (!compose || !item) throw new OfficeCallError('No mail is being composed', undefined);
    return item as unknown as Office.MessageCompose;
  };

  return {
    mode,
    displayLanguage: info.displayLanguage || 'en-US',
    async getRecipients() {
      const mail = composeItem();
      const [to, cc, bcc] = await Promise.all([
        call<Office.EmailAddressDetails[]>((cb) => mail.to.getAsync(cb)),
        call<Office.EmailAddressDetails[]>((cb) => mail.cc.getAsync(cb)),
        // NB: bcc is a Recipients object from Mailbox 1.1 in compose mode.
        call<Office.EmailAddressDetails[]>((cb) => mail.bcc.getAsync(cb)),
      ]);
      return { to: addresses(to), cc: addresses(cc), bcc: addresses(bcc) };
    },
    getSubject: () => {
      if (mode === 'read') return Promise.resolve((item as unknown as Office.MessageRead).subject ?? '');
      return call<string>((cb) => composeItem().subject.getAsync(cb));
    },
    getBody: () => {
      if (!item) return Promise.resolve('');
      return call<string>((cb) => item.body.getAsync(Office.CoercionType.Text, cb));
    },
    async getAttachments() {
      const list = await call<Office.AttachmentDetailsCompose[]>((cb) => composeItem().getAttachmentsAsync(cb));
      return list.map((a) => ({
        id: a.id,
        name: a.name,
        size: a.size,
        isInline: a.isInline,
        kind: a.attachmentType === Office.MailboxEnums.AttachmentType.Item ? 'item' : a.attachmentType === Office.MailboxEnums.AttachmentType.Cloud ? 'cloud' : 'file',
      }));
    },
    async getAttachmentContent(attachment) {
      const content = await call<Office.AttachmentContent>((cb) => composeItem().getAttachmentContentAsync(attachment.id, cb));
      switch (content.format) {
        case Office.MailboxEnums.AttachmentContentFormat.Base64:
          return base64ToBlob(content.content, '');
        case Office.MailboxEnums.AttachmentContentFormat.Eml:
          return new Blob([content.content], { type: 'message/rfc822' });
        case Office.MailboxEnums.AttachmentContentFormat.ICalendar:
          return new Blob([content.content], { type: 'text/calendar' });
        default:
          throw new OfficeCallError(`Attachment ${attachment.name} is a link, not a file`, undefined);
      }
    },
    async notify(kind, message) {
      if (!item) return;
      const details: Office.NotificationMessageDetails =
        kind === 'error'
          ? { type: Office.MailboxEnums.ItemNotificationMessageType.ErrorMessage, message: message.slice(0, 150) }
          : { type: Office.MailboxEnums.ItemNotificationMessageType.InformationalMessage, message: message.slice(0, 150), icon: 'Icon.16x16', persistent: false };
      await call<void>((cb) => item.notificationMessages.replaceAsync(NOTICE_KEY, details, cb));
    },
    async replaceAndClose(notice) {
      const mail = composeItem();
      await Promise.all([
        call<void>((cb) => mail.to.setAsync([], cb)),
        call<void>((cb) => mail.cc.setAsync([], cb)),
        call<void>((cb) => mail.bcc.setAsync([], cb)),
      ]);
      await call<void>((cb) => mail.body.setAsync(notice, { coercionType: Office.CoercionType.Text }, cb));
      mail.close();
    },
    openBrowserWindow(url) {
      // OpenBrowserWindowApi 1.1; older hosts without it get a plain new window.
      if (typeof info.ui.openBrowserWindow === 'function') info.ui.openBrowserWindow(url);
      else window.open(url, '_blank', 'noopener');
    },
    openDialog(url) {
      return new Promise((resolve, reject) => {
        info.ui.displayDialogAsync(url, { height: 70, width: 40, displayInIframe: false }, (result) => {
          if (result.status !== Office.AsyncResultStatus.Succeeded) {
            reject(new OfficeCallError(result.error.message, result.error.code));
            return;
          }
          const dialog = result.value;
          dialog.addEventHandler(Office.EventType.DialogMessageReceived, (arg) => {
            dialog.close();
            if ('message' in arg) resolve(arg.message);
            else reject(new OfficeCallError('Dialog closed', arg.error));
          });
          dialog.addEventHandler(Office.EventType.DialogEventReceived, (arg) => {
            reject(new OfficeCallError('Dialog closed', 'error' in arg ? arg.error : undefined));
          });
        });
      });
    },
  };
}

/** Resolves once office.js is ready (render after Office.onReady, DESIGN §8). */
export async function onOfficeReady(): Promise<OfficeHost> {
  await Office.onReady();
  return createHost(Office.context);
}

/** In an Office dialog: hands `message` to the task pane that opened it. */
export async function messageParent(message: string): Promise<void> {
  await Office.onReady();
  Office.context.ui.messageParent(message);
}
