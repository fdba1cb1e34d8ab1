// The preview and edit of a Secure room file (issue 31 §3; shared/crypto/README.md section 7): the
// server serves the ciphertext (every role, PREVIEWER too: server/rooms/e2e/e2e-preview.ts), the
// crypto Worker decrypts it against the signed header and content hash, the browser picks the viewer
// from the decrypted bytes. A save encrypts the text as the file's next version (new file key,
// metadata signed with the version chain, bound to the version the server holds at the save) and
// commits with If-Match on the ciphertext's ETag.
import { API_BASE } from '@shared/contract/constants';
import { contentEtag, ROOM_PREVIEW_PATHS } from '@shared/contract/room-preview';
import type { RoomRole } from '@shared/contract/rooms';
import { collectStream } from '@shared/crypto/stream-encoder';
import { signedContentOf } from '@shared/crypto/room';
import type { UnlockedKeys } from '@shared/crypto/service';
import { cryptoApi } from '@web/lib/crypto';
import { currentLanguage } from '@web/lib/i18n';
import { numberedName } from '../api/room-files';
import { asSaveConflict, loadedFromBytes, type PreviewSource } from '../preview/preview-source';
import { roomMay } from '../room-may';
import { fileKeyOf, roomKeyOf, uploadE2eFile, type E2eListedFile } from './e2e-room-client';
import { takenNamesNow } from './e2e-names';
import { e2eRangedPreview } from './e2e-media';
import { currentE2eFile } from './e2e-versions';

export interface E2ePreviewTarget {
  roomUuid: string;
  folderUuid: string | null;
  role: RoomRole | undefined;
  /** Asks for the SecuPass when locked; null: not unlocked. */
  unlock: () => Promise<UnlockedKeys | null>;
  me: { uuid: string; email: string } | null;
  onSaved: () => void;
}

export function e2ePreviewSource(row: E2eListedFile, target: E2ePreviewTarget): PreviewSource {
  const { roomUuid, folderUuid } = target;
  // The version shown and saved over: replaced by the current one at each load.
  let shown = row;
  const keysOrThrow = async () => {
    const keys = await target.unlock();
    if (!keys || !target.me) throw new Error('locked');
    return { keys, me: target.me };
  };
  const encrypted = async (text: string, type: string, name: string, placement: Parameters<typeof uploadE2eFile>[1]['placement'], ifMatch?: string) => {
    const { keys, me } = await keysOrThrow();
    return uploadE2eFile(new File([text], name, { type }), { roomUuid, folderUuid, keys, me, ...(placement ? { placement } : {}), ...(ifMatch ? { ifMatch } : {}) });
  };
  return {
    id: row.uuid,
    name: row.name,
    editable: roomMay(target.role, 'edit'),
    async load(signal) {
      const { keys } = await keysOrThrow();
      shown = (await currentE2eFile(roomUuid, folderUuid, keys, shown)).file;
      const metadata = shown.metadata;
      if (!metadata) throw new Error('The file’s metadata did not verify');
      const fileKey = await fileKeyOf(roomUuid, keys, shown);
      // A PDF is read by pdf.js, and audio and video play where the download service worker runs,
      // by range, record by record (e2e-media.ts); the other kinds are decrypted whole.
      const ranged = await e2eRangedPreview({ roomUuid, fileUuid: shown.uuid, fileKey, metadata, lang: currentLanguage() });
      if (ranged) return ranged;
      const response = await fetch(`${API_BASE}${ROOM_PREVIEW_PATHS.e2e(roomUuid, shown.uuid)}`, { credentials: 'include', signal });
      if (!response.ok || !response.body) throw new Error(`preview ${response.status}`);
      const { plaintext } = await cryptoApi.decryptStream({
        fileKey,
        ciphertext: response.body,
        plaintextLength: metadata.size,
        expectedHeaderSha256: metadata.headerSha256,
        ...signedContentOf(metadata),
      });
      return loadedFromBytes(await collectStream(plaintext), metadata.name, metadata.mimeType ?? '', response.headers.get('etag'));
    },
    async save(text, type, etag) {
      try {
        // Bound to the version on the server now: after a first save from this dialog that is the
        // saved one, not the one loaded (its number and chain link name the next version; a version
        // saved by someone else meanwhile is refused by If-Match on `etag` all the same).
        const { keys } = await keysOrThrow();
        shown = (await currentE2eFile(roomUuid, folderUuid, keys, shown)).file;
        const saved = await encrypted(text, type, shown.name, { name: shown.name, replace: { uuid: shown.uuid, version: shown.version + 1, current: shown.metadata } }, etag ?? undefined);
        target.onSaved();
        return saved.sha256 ? contentEtag(saved.sha256) : null;
      } catch (error) {
        throw asSaveConflict(error);
      }
    },
    async saveCopy(text, type) {
      // The first free "name (n)" among the folder's names as the server holds them now: the list
      // shown may be older than a copy someone else saved meanwhile.
      const { keys } = await keysOrThrow();
      const taken = await takenNamesNow(roomUuid, await roomKeyOf(roomUuid, keys), folderUuid);
      let name = numberedName(shown.name, 1);
      for (let n = 2; taken.has(name.toLowerCase()); n++) name = numberedName(shown.name, n);
      await encrypted(text, type, name, { name });
      target.onSaved();
      return name;
    },
  };
}
