import { access, constants } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTransport } from 'nodemailer';
import type { Language } from '@shared/contract/constants';
import { DEFAULT_THEME_COLOR } from '@shared/theme/constants';
import { ensurePrivateDir } from '../db/private-files';
import { writeMailboxMessage } from './mailbox-folder';
import { DEFAULT_ORGANISATION, MAIL_LOGO_CID, renderMail, type MailTemplateData, type MailTemplateName } from './templates';

/** Mail settings chosen at run time (installation wizard, admin settings). */
export interface MailRuntimeSettings {
  transport?: 'mailbox' | 'smtp' | null;
  smtpUrl?: string | null;
  from?: string | null;
  /** The organisation name (System settings): the sender's display name and the mails' texts and signature. */
  organisationName?: string | null;
  /** The theme colour (Administration › Theme) for the mail's header bar and button. */
  themeColor?: string | null;
  /** The uploaded logo when it is a raster image (mail clients do not show SVG): attached inline. */
  logo?: { bytes: Uint8Array; contentType: string } | null;
}

export interface MailerConfig {
  /** Data folder; the local mailbox is `<dataDir>/mailbox`. */
  dataDir: string;
  /**
   * NB: secret (may hold a password), never logged. `smtp://user:pass@host:port` or
   * `smtps://...`. When set (SMTP_URL), mail goes out by SMTP whatever the settings say.
   */
  smtpUrl?: string | undefined;
  /** Sender address; a `from` from the settings wins over it. */
  from?: string | undefined;
  /** Read before each mail: the wizard's choice of transport, SMTP URL and sender. */
  settings?: (() => Promise<MailRuntimeSettings>) | undefined;
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
  /** Id of the file in the local mailbox, when that transport was used. */
  mailboxId?: string;
}

export type MailTransportKind = 'mailbox' | 'smtp';

export interface Mailer {
  /** The transport chosen by the configuration alone (SMTP_URL set or not). */
  readonly transport: MailTransportKind;
  /** The local mailbox folder (where mail goes while no SMTP is chosen). */
  readonly mailboxFolder: string;
  /** The transport the next mail will take, settings included. */
  activeTransport(): Promise<MailTransportKind>;
  send<K extends MailTemplateName>(mail: MailRequest<K>): Promise<SentMail>;
  /** For `/readyz`: the SMTP relay in use accepts a connection (and the login), or the mailbox folder can be written. */
  checkReady(): Promise<void>;
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

/** Without a display name: the organisation name is put in front (`"ACME" <no-reply@…>`). */
const DEFAULT_FROM = 'no-reply@kuvert.localhost';
/** Three tries spaced 0.5 s and 1 s cover a relay restart without holding a request long. */
const DEFAULT_MAX_ATTEMPTS = 3;
const DEFAULT_RETRY_BASE_DELAY_MS = 500;

export function mailboxFolderOf(dataDir: string): string {
  return join(dataDir, 'mailbox');
}

type SmtpTransport = ReturnType<typeof createTransport>;

interface Route {
  kind: MailTransportKind;
  smtpUrl: string | null;
  /** A configured "Name <address>" as it is; a bare address gets the organisation as its name. */
  from: string | { name: string; address: string };
  organisation: string;
  themeColor: string | null;
  logo: { bytes: Uint8Array; contentType: string } | null;
}

/**
 * The From header: an address given with its own display name ("Support <help@example.org>") is
 * the administrator's choice and stays; a bare address is shown with the organisation name.
 */
export function senderOf(from: string, organisation: string): string | { name: string; address: string } {
  return /<[^<>]+>\s*$/.test(from) ? from : { name: organisation, address: from.trim() };
}

export function createMailer(config: MailerConfig): Mailer {
  const maxAttempts = Math.max(1, config.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const baseDelay = config.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
  const mailboxFolder = mailboxFolderOf(config.dataDir);
  // One transport per URL: a changed setting gets a new one, the old one is closed at the end.
  const smtpTransports = new Map<string, SmtpTransport>();
  // Builds the raw message for the folder with nodemailer's own composer, so the .eml
  // is exactly what SMTP would have carried.
  const composer = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  const smtpFor = (url: string): SmtpTransport => {
    let transport = smtpTransports.get(url);
    if (!transport) {
      transport = createTransport(url);
      // A pooled transport (`?pool=true`) reports a dropped idle connection as an 'error' event,
      // which would end the process unheard; the next send opens a new connection and fails on its own.
      transport.on('error', () => undefined);
      smtpTransports.set(url, transport);
    }
    return transport;
  };

  async function route(): Promise<Route> {
    const settings = config.settings ? await config.settings() : {};
    const organisation = settings.organisationName?.trim() || DEFAULT_ORGANISATION;
    const from = senderOf(settings.from || config.from || DEFAULT_FROM, organisation);
    const brand = { themeColor: settings.themeColor ?? null, logo: settings.logo ?? null };
    if (config.smtpUrl) return { kind: 'smtp', smtpUrl: config.smtpUrl, from, organisation, ...brand };
    if (settings.transport === 'smtp' && settings.smtpUrl) return { kind: 'smtp', smtpUrl: settings.smtpUrl, from, organisation, ...brand };
    return { kind: 'mailbox', smtpUrl: null, from, organisation, ...brand };
  }

  async function deliverOnce<K extends MailTemplateName>(mail: MailRequest<K>, via: Route): Promise<SentMail> {
    const rendered = renderMail(mail.template, mail.language, mail.data, via.organisation, { color: via.themeColor ?? DEFAULT_THEME_COLOR, logo: via.logo !== null });
    const attachments = via.logo
      ? [{ filename: `logo.${via.logo.contentType.split('/')[1] ?? 'png'}`, content: Buffer.from(via.logo.bytes), contentType: via.logo.contentType, cid: MAIL_LOGO_CID, contentDisposition: 'inline' as const }]
      : [];
    const message = { from: via.from, to: mail.to, subject: rendered.subject, text: rendered.text, html: rendered.html, attachments };
    if (via.smtpUrl) {
      const info = await smtpFor(via.smtpUrl).sendMail(message);
      return { messageId: info.messageId };
    }
    const info = await composer.sendMail(message);
    const raw = info.message as unknown as Uint8Array;
    const entry = await writeMailboxMessage(mailboxFolder, { to: mail.to, subject: rendered.subject, text: rendered.text }, raw);
    return { messageId: info.messageId, mailboxId: entry.id };
  }

  return {
    transport: config.smtpUrl ? 'smtp' : 'mailbox',
    mailboxFolder,
    async activeTransport() {
      return (await route()).kind;
    },
    async send(mail) {
      const via = await route();
      let lastError: unknown;
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        try {
          return await deliverOnce(mail, via);
        } catch (error) {
          lastError = error;
          if (attempt < maxAttempts) await sleep(baseDelay * 2 ** (attempt - 1));
        }
      }
      throw new MailDeliveryError(mail.template, maxAttempts, lastError);
    },
    async checkReady() {
      const via = await route();
      if (via.smtpUrl) {
        await smtpFor(via.smtpUrl).verify();
        return;
      }
      await ensurePrivateDir(mailboxFolder);
      await access(mailboxFolder, constants.W_OK);
    },
    async close() {
      for (const transport of smtpTransports.values()) transport.close();
      composer.close();
    },
  };
}
