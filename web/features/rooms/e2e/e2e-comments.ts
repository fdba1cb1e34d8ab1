import { call } from '@shared/api/call';
import { ROOM_E2E_ENDPOINTS as X } from '@shared/contract/endpoints/rooms-e2e';
import type { RoomComment } from '@shared/contract/room-comments';
import type { E2eRoomState } from '@shared/contract/rooms-e2e';
import { roomCommentSignerKeyId, type RoomCommentRef } from '@shared/crypto/room-comments';
import type { UnlockedKeys } from '@shared/crypto/service';
import { verifiedContactKey } from '@shared/transfer/e2e';
import { commentAuthorRefusal } from '@shared/transfer/room-member-list';
import { apiClient } from '@web/lib/api-client';
import { authStore } from '@web/lib/auth';
import { cryptoApi } from '@web/lib/crypto';
import type { CommentTarget } from '../api/room-comments';
import type { CommentCodec, ShownComment } from '../room-comments';
import { e2eOf } from './changed-key-question';
import { memberListOf, roomKeyOf, writableRoomKeyOf } from './e2e-room-client';

/** What a comment is bound to (shared/crypto/README.md section 7 "Comments"): room, item, author. */
const refOf = (roomUuid: string, target: CommentTarget, authorUserId: string): RoomCommentRef =>
  'fileUuid' in target ? { roomId: roomUuid, kind: 'file', itemId: target.fileUuid, authorUserId } : { roomId: roomUuid, kind: 'folder', itemId: target.folderUuid, authorUserId };

const INVALID: ShownComment = { problem: 'room-comment-invalid' };

/** The author's signing key `keyId` as listed by the server, checked against the caller's pins (a changed key is asked about). */
async function pinnedKeyOf(keys: UnlockedKeys, state: E2eRoomState, authorUuid: string, keyId: string): Promise<{ publicKey: string } | { problem: string }> {
  const author = state.signers.find((s) => s.userUuid === authorUuid);
  const key = author?.keys.find((k) => k.usage === 'signing' && k.keyId === keyId);
  if (!author || !key) return INVALID as { problem: string };
  try {
    const pinned = await verifiedContactKey(apiClient, e2eOf(keys), { email: author.email, userUuid: author.userUuid, usage: 'signing', keyId: key.keyId, publicKey: key.publicKey, ...(key.retired ? { retired: true } : {}) });
    return { publicKey: pinned.publicKey };
  } catch (error) {
    return { problem: (error as { code?: string }).code ?? 'room-comment-invalid' };
  }
}

/**
 * The Comments tab's codec in a Secure room (issue 31 §1): the text sealed with the room key and
 * signed by its author in the crypto Worker; on reading, each author's key pin-checked and every
 * comment verified and opened in one Worker call. The server gets and gives back ciphertext only.
 */
export function e2eCommentCodec(roomUuid: string, keys: UnlockedKeys): CommentCodec {
  return {
    async seal(target, text) {
      const me = authStore.getState().user?.uuid;
      if (!me) throw new Error('Not signed in');
      // Sealed only under a copy whose grant verified (as names and files are).
      const roomKey = await writableRoomKeyOf(roomUuid, keys);
      return cryptoApi.sealRoomComment({ roomKey, signingKey: keys.signing.handle, ref: refOf(roomUuid, target, me), text, writtenAt: new Date().toISOString() });
    },
    async open(target, comments: RoomComment[]) {
      const shown = new Map<string, ShownComment>();
      if (comments.length === 0) return shown;
      const [roomKey, state, listTrust] = await Promise.all([roomKeyOf(roomUuid, keys), call(apiClient, X.state, { params: { roomUuid } }), memberListOf(roomUuid, keys).catch(() => null)]);
      // The author must be able to write in the signed member list (README section 7 "Comments"); none verified: the server's role.
      const memberList = listTrust?.ok ? listTrust.list : null;
      const pins = new Map<string, ReturnType<typeof pinnedKeyOf>>();
      const items: { uuid: string; ref: RoomCommentRef; text: string; signature: string; signerPublicKey: string }[] = [];
      for (const comment of comments) {
        let keyId: string;
        try {
          if (!comment.author || !comment.signature) throw new Error('unsigned');
          keyId = roomCommentSignerKeyId(comment.signature);
        } catch {
          shown.set(comment.uuid, INVALID);
          continue;
        }
        const authorUuid = comment.author!.uuid;
        const pinKey = `${authorUuid}|${keyId}`;
        if (!pins.has(pinKey)) pins.set(pinKey, pinnedKeyOf(keys, state, authorUuid, keyId));
        const key = await pins.get(pinKey)!;
        const refused = commentAuthorRefusal(memberList, { userUuid: authorUuid, role: state.signers.find((s) => s.userUuid === authorUuid)?.role ?? null });
        if ('problem' in key) shown.set(comment.uuid, key);
        else if (refused) shown.set(comment.uuid, { problem: refused });
        else items.push({ uuid: comment.uuid, ref: refOf(roomUuid, target, authorUuid), text: comment.text, signature: comment.signature!, signerPublicKey: key.publicKey });
      }
      const { results } = items.length ? await cryptoApi.openRoomComments({ roomKey, items: items.map(({ uuid: _uuid, ...item }) => item) }) : { results: [] };
      results.forEach((result, i) => shown.set(items[i]!.uuid, result.ok ? { text: result.value.text } : { problem: result.code }));
      return shown;
    },
  };
}
