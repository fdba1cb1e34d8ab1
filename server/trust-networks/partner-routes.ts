// Which partner serves an address (issue 30, docs/trust-networks.md "Deliveries"): read by the
// sender's transfer (transfers.ts) and the key look-ups (e2e.ts), so neither imports the other.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { TrustConnectionRow } from './connections';

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * The established connection whose partner serves each address (its domain is one of the
 * connection's partner domains), read now: an edited or deleted connection counts at once.
 */
export async function partnerRoutes(db: Kysely<Database>, emails: string[]): Promise<Map<string, TrustConnectionRow>> {
  const routes = new Map<string, TrustConnectionRow>();
  if (emails.length === 0) return routes;
  const connections = await db.selectFrom('trust_connections').selectAll().where('deleted_at', 'is', null).where('status', '=', 'established').orderBy('id').execute();
  for (const email of emails) {
    const connection = connections.find((c) => (JSON.parse(c.partner_domains) as string[]).includes(domainOf(email)));
    if (connection) routes.set(email.toLowerCase(), connection);
  }
  return routes;
}
