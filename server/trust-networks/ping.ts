import { TRUST_PING_PATH, type TrustPing } from '@shared/contract/trust-networks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendSigned, verifyPartnerCall } from './partner-calls';
import { TrustRefusal } from './signatures';

export { TRUST_REFUSALS_PER_IP } from './partner-calls';

/**
 * `POST /api/2/trust/ping` (docs/trust-networks.md): a partner's signed ping, verified as every
 * partner call (partner-calls.ts), and also: the ping names our own key of the connection. The
 * answer is a pong signed by our own key of the connection.
 */
export async function answerPing(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, ping: TrustPing, rawBody: string): Promise<FastifyReply> {
  const { connection, verified } = await verifyPartnerCall(app, request, TRUST_PING_PATH, rawBody, (row, signature) => {
    if (ping.to !== row.own_key_fingerprint) throw new TrustRefusal('unknownKey', "The caller holds a key for this server that is not this connection's own key", signature.keyId);
  });
  return sendSigned(app, reply, connection, 200, { type: 'pong', nonce: verified.nonce });
}
