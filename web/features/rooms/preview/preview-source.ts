// What the preview dialog shows and saves, whatever the room: a plain room's source fetches the
// server's preview and saves by a replace upload (preview/plain-source.ts), a Secure room's
// decrypts in the crypto Worker and saves encrypted (e2e/e2e-preview-source.ts). Both save with
// If-Match (shared/contract/room-preview.ts): a 412 becomes SaveConflictError.
import { isApiError } from '@shared/api/api-error';
import { SAVE_CONFLICT_REASON } from '@shared/contract/room-preview';
import { sniffPreview, type PreviewKind } from './preview-kind';
import { blobRanges, type RangedBytes } from './ranged-bytes';

export type TextKind = 'text' | 'markdown' | 'csv' | 'json';

export type Loaded =
  | { kind: 'image'; blob: Blob; etag: string | null }
  /** Read by range: pdf.js asks for the pieces it needs (ranged-bytes.ts), never the whole file first. */
  | { kind: 'pdf'; bytes: RangedBytes; etag: string | null }
  /** `src`: the preview URL (streamed, Range) or a blob URL the dialog revokes (`revoke`). */
  | {
      kind: 'audio' | 'video';
      src: string;
      revoke: boolean;
      etag: string | null;
      /** `src` is a page (the download service worker's frame playing a Secure-room file by range). */
      framed?: boolean;
      /** Called when the preview goes (ends the ranged stream). */
      close?: () => void;
    }
  | { kind: TextKind; text: string; type: string; etag: string | null }
  | { kind: 'unsupported'; office: boolean };

export interface PreviewSource {
  /** Changes when another file is shown (the dialog starts over). */
  id: string;
  name: string;
  /** OWNER and EDITOR (SPEC §6 `edit`). */
  editable: boolean;
  load(signal: AbortSignal): Promise<Loaded>;
  /** Saves as the file's next version if it is still the version `etag` names; answers the new ETag. */
  save(text: string, type: string, etag: string | null): Promise<string | null>;
  /** Saves as a new file next to it ("name (1).ext"); answers its name. */
  saveCopy(text: string, type: string): Promise<string>;
}

/** Somebody saved a newer version since this one was loaded (the server's 412 saveConflict). */
export class SaveConflictError extends Error {
  constructor() {
    super('A newer version was saved in the meantime');
    this.name = 'SaveConflictError';
  }
}

/** The commit's 412 as SaveConflictError; anything else unchanged. */
export function asSaveConflict(error: unknown): unknown {
  const reason = isApiError(error) ? (error.error?.metadata as { reason?: unknown } | undefined)?.reason : undefined;
  return isApiError(error) && error.status === 412 && reason === SAVE_CONFLICT_REASON ? new SaveConflictError() : error;
}

/** Decrypted (or fetched) bytes as what the dialog shows: by their own type, then the text kinds. */
export function loadedFromBytes(bytes: Uint8Array, name: string, declared: string, etag: string | null): Loaded {
  const sniffed = sniffPreview(bytes.subarray(0, 64), name, declared);
  if (!sniffed) return { kind: 'unsupported', office: false };
  return fromKind(sniffed.kind, sniffed.type, new Blob([bytes as Uint8Array<ArrayBuffer>], { type: sniffed.type }), etag, () => new TextDecoder().decode(bytes));
}

function fromKind(kind: PreviewKind, type: string, blob: Blob, etag: string | null, text: () => string): Loaded {
  if (kind === 'image') return { kind, blob, etag };
  if (kind === 'pdf') return { kind, bytes: blobRanges(blob), etag };
  if (kind === 'audio' || kind === 'video') return { kind, src: URL.createObjectURL(blob), revoke: true, etag };
  return { kind, text: text(), type, etag };
}
