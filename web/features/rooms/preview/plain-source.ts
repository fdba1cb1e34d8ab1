import { API_BASE } from '@shared/contract/constants';
import { ROOM_OPS_PATHS } from '@shared/contract/room-ops';
import { contentEtag } from '@shared/contract/room-preview';
import type { RoomFile } from '@shared/contract/rooms';
import { uploadRoomFile } from '../api/room-files';
import { roomMay } from '../room-may';
import { isOfficeName, kindOfType } from './preview-kind';
import { asSaveConflict, type Loaded, type PreviewSource } from './preview-source';
import { blobRanges, fetchRange, sizeOfContentRange } from './ranged-bytes';

/** GET …/preview with the session cookie; a failed answer throws (the dialog says the preview could not be loaded). */
async function fetchPreview(url: string, signal: AbortSignal, range?: string): Promise<Response> {
  const response = await fetch(url, { credentials: 'include', signal, ...(range ? { headers: { range } } : {}) });
  if (!response.ok && response.status !== 415) throw new Error(`preview ${response.status}`);
  return response;
}

/**
 * A plain room's file: the server sniffs the type; a first request of one byte asks it (and the
 * ETag and size), so audio and video are not fetched here but streamed by the player from the same
 * URL (Range, 206), and a PDF is read by pdf.js range by range (each answer must carry the probe's
 * ETag). Saving is a replace upload of the text with If-Match.
 */
export function plainPreviewSource(file: RoomFile, onSaved: () => void): PreviewSource {
  const url = `${API_BASE}${ROOM_OPS_PATHS.preview(file.roomUuid, file.uuid)}`;
  const upload = (text: string, type: string, choice: 'replace' | 'keepBoth', ifMatch?: string) =>
    uploadRoomFile(new File([text], file.name, { type }), {
      roomUuid: file.roomUuid,
      folderUuid: file.folderUuid,
      onConflict: () => Promise.resolve(choice),
      ...(ifMatch ? { ifMatch } : {}),
    });
  return {
    id: file.uuid,
    name: file.name,
    editable: roomMay(file.role, 'edit'),
    async load(signal): Promise<Loaded> {
      const probe = await fetchPreview(url, signal, 'bytes=0-0');
      await probe.body?.cancel();
      if (probe.status === 415) return { kind: 'unsupported', office: isOfficeName(file.name) };
      const type = probe.headers.get('content-type') ?? '';
      const kind = kindOfType(type);
      if (!kind) return { kind: 'unsupported', office: isOfficeName(file.name) };
      if (kind === 'audio' || kind === 'video') return { kind, src: url, revoke: false, etag: probe.headers.get('etag') };
      const size = sizeOfContentRange(probe.headers.get('content-range'));
      if (kind === 'pdf' && size !== null) {
        const etag = probe.headers.get('etag');
        return { kind, bytes: { size, read: (start, end) => fetchRange(url, start, end, { etag }) }, etag };
      }
      const whole = await fetchPreview(url, signal);
      const etag = whole.headers.get('etag');
      if (kind === 'image') return { kind, blob: await whole.blob(), etag };
      if (kind === 'pdf') return { kind, bytes: blobRanges(await whole.blob()), etag };
      return { kind, text: await whole.text(), type: type.split(';')[0]!.trim(), etag };
    },
    async save(text, type, etag) {
      try {
        const saved = await upload(text, type, 'replace', etag ?? undefined);
        onSaved();
        return saved.sha256 ? contentEtag(saved.sha256) : null;
      } catch (error) {
        throw asSaveConflict(error);
      }
    },
    async saveCopy(text, type) {
      const saved = await upload(text, type, 'keepBoth');
      onSaved();
      return saved.name;
    },
  };
}
