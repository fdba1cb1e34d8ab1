import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { listMailboxMessages } from '../../server/mail/mailbox-folder';

/**
 * Reads the server's local mailbox folder (`$KUVERT_DATA_DIR/mailbox`, one `.eml` per
 * mail). Used by the integration tests and by the Playwright tests.
 */
export interface MailboxMail {
  /** File name without `.eml`. */
  id: string;
  parsed: ParsedMail;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export async function readMailbox(folder: string): Promise<MailboxMail[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  // Only finished files: the server writes a temp name and renames it to `.eml`.
  const ids = names.filter((n) => n.endsWith('.eml')).map((n) => n.slice(0, -4)).sort();
  return Promise.all(ids.map((id) => readMailboxMail(folder, id)));
}

export async function readMailboxMail(folder: string, id: string): Promise<MailboxMail> {
  const parsed = await simpleParser(await readFile(join(folder, `${id}.eml`)));
  return {
    id,
    parsed,
    to: parsed.to ? (Array.isArray(parsed.to) ? parsed.to : [parsed.to]).map((a) => a.text).join(', ') : '',
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
  };
}

/** Polls the folder until a mail matches (oldest first), or fails after `timeoutMs`. */
export async function waitForMailboxMail(
  folder: string,
  predicate: (mail: MailboxMail) => boolean,
  { timeoutMs = 10_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<MailboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readMailbox(folder)).find(predicate);
    if (found) return found;
    if (Date.now() >= deadline) throw new Error(`No matching mail in ${folder} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Mails addressed to `address` (case-insensitive), oldest first. */
export function addressedTo(address: string): (mail: MailboxMail) => boolean {
  const needle = address.toLowerCase();
  return (mail) => mail.to.toLowerCase().includes(needle);
}

/** First 6-digit code in the text part (account verification mails). */
export function extractVerificationCode(mail: MailboxMail): string {
  const match = /^\s*(\d{6})\s*$/m.exec(mail.text);
  if (!match?.[1]) throw new Error(`No verification code in mail "${mail.subject}"`);
  return match[1];
}

/** First link to the given path in the text part (e.g. `/auth/reset-password`). */
export function extractLink(mail: MailboxMail, path: string): URL {
  const match = new RegExp(`https?://[^\\s"<>]*${path.replace(/[/.]/g, '\\$&')}[^\\s"<>]*`).exec(mail.text);
  if (!match) throw new Error(`No link to ${path} in mail "${mail.subject}"`);
  return new URL(match[0]);
}

/**
 * The one-time token of a mailed link, from its fragment (`#token=…`, issue 28 §1), where the
 * browser keeps it from every server; throws when the link carries it in the query instead.
 */
export function linkToken(link: URL, name = 'token'): string {
  if (link.searchParams.has(name)) throw new Error(`The link ${link.pathname} carries its ${name} in the query`);
  const token = new URLSearchParams(link.hash.slice(1)).get(name);
  if (!token) throw new Error(`No ${name} in the fragment of ${link.pathname}`);
  return token;
}

/** One SMS of the default SMS gateway: `<id>.sms` (the text) beside `<id>.json` (`to`). */
export interface MailboxSms {
  id: string;
  to: string;
  text: string;
}

/** Every SMS in the mailbox folder, oldest first (the server's own listing, SMS only). */
export async function readMailboxSms(folder: string): Promise<MailboxSms[]> {
  const entries = await listMailboxMessages(folder);
  return entries
    .filter((e) => e.kind === 'sms')
    .reverse()
    .map(({ id, to, text }) => ({ id, to, text }));
}

/** Polls until an SMS to `to` arrives that is not among `seen` ids; returns it. */
export async function waitForSms(folder: string, to: string, { seen = new Set<string>(), timeoutMs = 10_000 } = {}): Promise<MailboxSms> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readMailboxSms(folder)).find((sms) => sms.to === to && !seen.has(sms.id));
    if (found) return found;
    if (Date.now() >= deadline) throw new Error(`No SMS to ${to} in ${folder} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The 6-digit code of a signup SMS. */
export function extractSmsCode(sms: MailboxSms): string {
  const match = /\b(\d{6})\b/.exec(sms.text);
  if (!match?.[1]) throw new Error('No code in the SMS');
  return match[1];
}
