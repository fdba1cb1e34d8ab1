/**
 * A local stand-in for office.js (served at Microsoft's CDN address through page.route): only
 * the mailbox calls the add-in uses, each recorded in `window.__officeCalls` in call order.
 * The composed mail comes from `window.__kuvertMailbox` (set with page.addInitScript).
 */
export const OFFICE_JS_URL = 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js';

export interface StandInAttachment {
  id: string;
  name: string;
  /** The bytes as base64 (what getAttachmentContentAsync hands out for files). */
  base64: string;
  size: number;
  kind?: 'file' | 'item' | 'cloud';
}

export interface StandInMailbox {
  mode: 'compose' | 'read';
  displayLanguage: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  body: string;
  attachments: StandInAttachment[];
}

export interface OfficeCall {
  name: string;
  args: unknown[];
}

export const OFFICE_JS_STAND_IN = String.raw`(() => {
  const cfg = window.__kuvertMailbox;
  const calls = (window.__officeCalls = []);
  const rec = (name, args) => calls.push({ name, args: args || [] });
  const done = (cb, value) => setTimeout(() => cb && cb({ status: 'succeeded', value }), 0);
  const cbOf = (a, b) => (typeof a === 'function' ? a : b);
  const recipients = (field) => ({
    getAsync(a, b) { rec(field + '.getAsync'); done(cbOf(a, b), cfg[field].map((e) => ({ emailAddress: e, displayName: e }))); },
    setAsync(value, a, b) { rec(field + '.setAsync', [value]); cfg[field] = value; done(cbOf(a, b)); },
  });
  const compose = {
    to: recipients('to'), cc: recipients('cc'), bcc: recipients('bcc'),
    subject: { getAsync(a, b) { rec('subject.getAsync'); done(cbOf(a, b), cfg.subject); } },
    body: {
      getAsync(type, a, b) { rec('body.getAsync', [type]); done(cbOf(a, b), cfg.body); },
      setAsync(value, a, b) { rec('body.setAsync', [value]); cfg.body = value; done(cbOf(a, b)); },
    },
    getAttachmentsAsync(a, b) {
      rec('getAttachmentsAsync');
      done(cbOf(a, b), cfg.attachments.map((x) => ({ id: x.id, name: x.name, size: x.size, isInline: false, attachmentType: x.kind || 'file' })));
    },
    getAttachmentContentAsync(id, a, b) {
      rec('getAttachmentContentAsync', [id]);
      const found = cfg.attachments.find((x) => x.id === id);
      done(cbOf(a, b), { format: 'base64', content: found ? found.base64 : '' });
    },
    notificationMessages: { replaceAsync(key, details, a, b) { rec('notificationMessages.replaceAsync', [key, details]); done(cbOf(a, b)); } },
    close() { rec('close'); },
  };
  const read = {
    subject: cfg.subject,
    to: cfg.to.map((e) => ({ emailAddress: e })),
    body: { getAsync(type, a, b) { rec('body.getAsync', [type]); done(cbOf(a, b), cfg.body); } },
    notificationMessages: compose.notificationMessages,
  };
  window.Office = {
    AsyncResultStatus: { Succeeded: 'succeeded', Failed: 'failed' },
    CoercionType: { Text: 'text', Html: 'html' },
    EventType: { DialogMessageReceived: 'dialogMessageReceived', DialogEventReceived: 'dialogEventReceived' },
    MailboxEnums: {
      AttachmentType: { File: 'file', Item: 'item', Cloud: 'cloud' },
      AttachmentContentFormat: { Base64: 'base64', Url: 'url', Eml: 'eml', ICalendar: 'iCalendar' },
      ItemNotificationMessageType: { ProgressIndicator: 'progressIndicator', InformationalMessage: 'informationalMessage', ErrorMessage: 'errorMessage' },
    },
    context: {
      displayLanguage: cfg.displayLanguage,
      mailbox: { item: cfg.mode === 'compose' ? compose : read },
      ui: {
        displayDialogAsync(url) { rec('displayDialogAsync', [url]); },
        messageParent(message) { rec('messageParent', [message]); },
        openBrowserWindow(url) { rec('openBrowserWindow', [url]); },
      },
    },
    onReady(cb) {
      rec('onReady');
      const info = { host: 'Outlook', platform: 'OfficeOnline' };
      if (cb) setTimeout(() => cb(info), 0);
      return Promise.resolve(info);
    },
  };
})();`;
