import type { FastifyInstance } from 'fastify';

/** Host names that only reach this machine. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLoopbackUrl(publicUrl: string): boolean {
  const host = new URL(publicUrl).hostname.toLowerCase();
  return LOOPBACK_HOSTS.has(host) || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * True while mail goes to the local mailbox folder (no SMTP_URL, no SMTP chosen in the
 * settings) although the server is reachable under a public URL that is not this machine:
 * nobody receives mail, and the mailbox holds every user's reset links and codes. The start
 * log and the System page of the administration warn about it.
 */
export async function mailboxExposed(app: FastifyInstance): Promise<boolean> {
  return (await app.mailer.activeTransport()) === 'mailbox' && !isLoopbackUrl(app.config.publicUrl);
}
