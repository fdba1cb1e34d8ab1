import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTransport } from 'nodemailer';
import type { Language } from '@shared/contract/constants';
import { writeMailboxMessage } from './mailbox-folder';
import { renderMail, type MailTemplateData, type MailTemplateName } from './templates';

export interface MailerConfig {
  /** Data folder; the local mailbox is `<dataDir>/mailbox`. */
  dataDir: string;
  /** `smtp://user:pass@host:port` or `smtps://...`. When set, mail goes out by SMTP instead of the folder. */
  smtpUrl?: string | undefined;
  /** Sender address. */
  from?: string | undefined;
  /** Attempts per mail before giving up (default 3). */
  maxAttempts?: number | undefined;
  /** Delay before the 2nd attempt; doubles each time (default 500 ms). */
  retryBaseDelayMs?: number | undefined;
}

export interface MailRequest<K extends MailTemplateName> {
  to: string;
  template: K;
  language: Language;
  data: MailTemplateData[K];
}

export interface SentMail {
  messageId: string;
  /** Id of the file in the local mailbox, when that transport is active. */
  mailboxId?: string;
}

export type MailTransportKind = 'mailbox' | 'smtp';

export interface Mailer {
  readonly transport: MailTransportKind;
  /** The local mailbox folder, or null when mail goes out by SMTP. */
  readonly mailboxFolder: string | null;
  send<K extends MailTemplateName>(mail: MailRequest<K>): Promise<SentMail>;
  close(): Promise<void>;
}

/** Thrown after the last attempt; names the template and attempts, never the mail's data. */
export class MailDeliveryError extends Error {
  constructor(template: string, attempts: number, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`Mail "${template}" could not be sent after ${attempts} attempt(s): ${reason}`, { cause });
    this.name = 'MailDeliveryError';
  }
}

const DEFAULT_FROM = 'Kuvert <no-reply@kuvert.localhost>';
/** Three tries spaced 0.5 s and 1 s cover a relay restart without holding a request long. */
const DEFAULT_MAX_ATTEMPTS = 3;
const DEFAULT_RETRY_BASE_DELAY_MS = 500;

export function mailboxFolderOf(dataDir: string): string {
  return join(dataDir, 'mailbox');
}

export function createMailer(config: MailerConfig): Mailer {
  const from = config.from ?? DEFAULT_FROM;
  const maxAttempts = Math.max(1, config.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const baseDelay = config.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
  const smtp = config.smtpUrl ? createTransport(config.smtpUrl) : null;
  // Builds the raw message for the folder with nodemailer's own composer, so the .eml
  // is exactly what SMTP would have carried.
  const composer = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const mailboxFolder = smtp ? null : mailboxFolderOf(config.dataDir);

  async function deliverOnce<K extends MailTemplateName>(mail: MailRequest<K>): Promise<SentMail> {
    const rendered = renderMail(mail.template, mail.language, mail.data);
    const message = { from, to: mail.to, subject: rendered.subject, text: rendered.text, html: rendered.html };
    if (smtp) {
      const info = await smtp.sendMail(message);
      return { messageId: info.messageId };
    }
    const info = await composer.sendMail(message);
    const raw = info.message as unknown as Uint8Array;
    const entry = await writeMailboxMessage(
      mailboxFolder as string,
      { to: mail.to, subject: rendered.subject, text: rendered.text },
      raw,
    );
    return { messageId: info.messageId, mailboxId: entry.id };
  }

  return {
    transport: smtp ? 'smtp' : 'mailbox',
    mailboxFolder,
    async send(mail) {
      let lastError: unknown;
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        try {
          return await deliverOnce(mail);
        } catch (error) {
          lastError = error;
          if (attempt < maxAttempts) await sleep(baseDelay * 2 ** (attempt - 1));
        }
      }
      throw new MailDeliveryError(mail.template, maxAttempts, lastError);
    },
    async close() {
      smtp?.close();
      composer.close();
    },
  };
}
