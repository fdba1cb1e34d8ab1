import { contentDisposition } from '@shared/contract/content-disposition';
import { z } from 'zod';
import { notFound } from '../core/http-error';
import { routePlugin } from '../core/route-plugin';
import { escapeHtml, htmlPage } from '../pages/html';
import { listMailboxMessages, readMailboxEntry, readMailboxRaw } from './mailbox-folder';

/**
 * The development mailbox (DESIGN §7a): lists the mails of the local mailbox folder.
 * IMPORTANT: it holds every user's reset links and codes, so only administrators may open
 * it (anonymous → 401, other users → 403), and it exists only while mail goes to that
 * folder: with SMTP it answers 404.
 */
/** Administrators only: the mails of every user are here. */
const MAILBOX_ACCESS = { roles: ['ROLE_ADMIN'] } as const;

export const devMailboxRoutes = routePlugin('kuvert-dev-mailbox-routes', async (app) => {
  const folder = async () => {
    if ((await app.mailer.activeTransport()) !== 'mailbox') throw notFound();
    return app.mailer.mailboxFolder;
  };

  app.get(
    '/dev/mailbox',
    {
      config: { access: MAILBOX_ACCESS },
      schema: { summary: 'Development mailbox: mails written to the local folder, newest first', tags: ['dev'], hide: true },
    },
    async (_request, reply) => {
      const entries = await listMailboxMessages(await folder());
      const rows = entries
        .map(
          (e) =>
            `<tr><td><time datetime="${escapeHtml(e.date)}">${escapeHtml(e.date.replace('T', ' ').slice(0, 19))}</time></td>` +
            `<td>${escapeHtml(e.to)}</td>` +
            `<td><a href="/dev/mailbox/${encodeURIComponent(e.id)}">${escapeHtml(e.subject)}</a></td>` +
            (e.kind === 'sms' ? '<td>SMS</td></tr>' : `<td><a href="/dev/mailbox/${encodeURIComponent(e.id)}?format=eml">.eml</a></td></tr>`),
        )
        .join('\n');
      const body =
        `<h1>Development mailbox</h1><p>${entries.length} mail(s) and SMS in the local mailbox folder.</p>` +
        (entries.length
          ? `<table><thead><tr><th scope="col">Date (UTC)</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Raw</th></tr></thead><tbody>${rows}</tbody></table>`
          : '<p>No mail yet.</p>');
      void reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      return htmlPage({ lang: 'en', title: 'Development mailbox', body });
    },
  );

  app.get(
    '/dev/mailbox/:id',
    {
      config: { access: MAILBOX_ACCESS },
      schema: {
        summary: 'One mail of the development mailbox: its text, or the raw message with ?format=eml',
        tags: ['dev'],
        hide: true,
        params: z.object({ id: z.string().max(100) }),
        querystring: z.object({ format: z.enum(['text', 'eml']).optional() }),
      },
    },
    async (request, reply) => {
      const dir = await folder();
      void reply.header('cache-control', 'no-store');
      if (request.query.format === 'eml') {
        const raw = await readMailboxRaw(dir, request.params.id);
        if (!raw) throw notFound('No such mail');
        return reply.type('message/rfc822').header('content-disposition', contentDisposition(`${request.params.id}.eml`, 'inline')).send(Buffer.from(raw));
      }
      const entry = await readMailboxEntry(dir, request.params.id);
      if (!entry) throw notFound('No such mail');
      return reply
        .type('text/plain; charset=utf-8')
        .send(`Date: ${entry.date}\nTo: ${entry.to}\nSubject: ${entry.subject}\n\n${entry.text}`);
    },
  );
});
