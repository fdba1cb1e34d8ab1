import { setTimeout as sleep } from 'node:timers/promises';
import { writeMailboxSms } from '../mail/mailbox-folder';

/**
 * SMS gateway (DESIGN §9), built like the mail module: one interface, a default that writes each
 * SMS into the local mailbox folder (as `<id>.sms` next to the mails, listed by `/dev/mailbox`),
 * and a real gateway chosen by configuration (`KUVERT_SMS_GATEWAY_URL`): an HTTP endpoint that
 * gets `POST {to, text}` as JSON, as most providers' REST APIs or a small relay accept.
 */
export interface SmsMessage {
  /** E.164 number, e.g. +49123456789. */
  to: string;
  text: string;
}

export interface SentSms {
  /** Id of the file in the local mailbox, when that gateway was used. */
  mailboxId?: string;
}

export type SmsGatewayKind = 'mailbox' | 'http';

export interface SmsGateway {
  readonly kind: SmsGatewayKind;
  send(sms: SmsMessage): Promise<SentSms>;
}

/** Thrown after the last attempt; names the number's last digits only, never the text (it holds a code). */
export class SmsDeliveryError extends Error {
  constructor(to: string, attempts: number, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`SMS to …${to.slice(-3)} could not be sent after ${attempts} attempt(s): ${reason}`, { cause });
    this.name = 'SmsDeliveryError';
  }
}

export interface SmsGatewayConfig {
  /** The local mailbox folder (the default gateway writes there). */
  mailboxFolder: string;
  /** NB: secret (may carry an API key), never logged. When set, SMS go out by HTTP POST. */
  gatewayUrl?: string | undefined;
  /** Attempts per SMS (default 3), like mail. */
  maxAttempts?: number | undefined;
  retryBaseDelayMs?: number | undefined;
  /** Per-request time limit of the HTTP gateway (default 10 s). */
  timeoutMs?: number | undefined;
}

const DEFAULT_MAX_ATTEMPTS = 3;
const DEFAULT_RETRY_BASE_DELAY_MS = 500;
const DEFAULT_TIMEOUT_MS = 10_000;

export function createSmsGateway(config: SmsGatewayConfig): SmsGateway {
  const maxAttempts = Math.max(1, config.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const baseDelay = config.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
  const url = config.gatewayUrl;

  async function once(sms: SmsMessage): Promise<SentSms> {
    if (!url) {
      const entry = await writeMailboxSms(config.mailboxFolder, sms);
      return { mailboxId: entry.id };
    }
    // Credentials in the URL (user:pass@) become a Basic header: fetch refuses them inline.
    const target = new URL(url);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (target.username || target.password) {
      headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}`;
      target.username = '';
      target.password = '';
    }
    const response = await fetch(target, {
      method: 'POST',
      headers,
      body: JSON.stringify({ to: sms.to, text: sms.text }),
      signal: AbortSignal.timeout(config.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`gateway answered ${response.status}`);
    return {};
  }

  return {
    kind: url ? 'http' : 'mailbox',
    async send(sms) {
      let lastError: unknown;
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        try {
          return await once(sms);
        } catch (error) {
          lastError = error;
          if (attempt < maxAttempts) await sleep(baseDelay * 2 ** (attempt - 1));
        }
      }
      throw new SmsDeliveryError(sms.to, maxAttempts, lastError);
    },
  };
}
