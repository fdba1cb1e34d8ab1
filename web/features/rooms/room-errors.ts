import { isApiError } from '@shared/api/api-error';
import { isNameProblem, textNameProblem, typedName, type NameProblem } from '@shared/contract/names';
import { formatSize } from '@web/lib/format-size';

/**
 * What a refused room call means for the person (SPEC §8 data-room errors), as an i18n key of the
 * `rooms` namespace: `field` says whether the message belongs at the name or user field of a
 * dialog instead of a toast. `language` formats the byte figures of a full storage (507).
 */
export interface RoomErrorText {
  key: string;
  values?: Record<string, unknown>;
  field?: 'name' | 'user';
}

/**
 * A name the browser refused by the product's one name rule (shared/contract/names.ts) before
 * sending it: in E2E rooms before it is sealed (the server sees only ciphertext and cannot judge it).
 */
export class RoomNameError extends Error {
  constructor(readonly problem: NameProblem) {
    super(`Invalid name (${problem})`);
    this.name = 'RoomNameError';
  }
}

/** The typed name as it is stored (spaces around it dropped, NFC), or RoomNameError. */
export function checkedRoomName(raw: string): string {
  const { name, problem } = typedName(raw);
  if (problem) throw new RoomNameError(problem);
  return name;
}

/**
 * A name the browser found taken before asking the server: in E2E rooms names are sealed, so the
 * server cannot compare them and the client checks the decrypted siblings itself. `kind` is the
 * sibling that holds the name.
 */
export class NameTakenError extends Error {
  constructor(readonly kind: 'folder' | 'file') {
    super(`A ${kind} with this name already exists here`);
    this.name = 'NameTakenError';
  }
}

/**
 * A decrypted E2E name as the reader shows it: null ("cannot be decrypted") when it carries what
 * the name rule refuses to disguise a name — bidi controls, zero-width characters, BOM, control
 * characters. The server cannot check sealed names, so a member's modified client could seal one.
 */
export function readableRoomName(name: string): string | null {
  return textNameProblem(name) ? null : name;
}

export function roomErrorText(error: unknown, language = 'en'): RoomErrorText {
  if (error instanceof RoomNameError) return { key: `errors.name.${error.problem}`, field: 'name' };
  if (error instanceof NameTakenError) return { key: error.kind === 'folder' ? 'errors.folderExists' : 'errors.fileExists', field: 'name' };
  if (!isApiError(error)) return { key: 'errors.network' };
  const metadata = (error.error?.metadata ?? {}) as { reason?: unknown; nameProblem?: unknown; field?: unknown; kind?: unknown; spaceAvailable?: unknown; spaceRequired?: unknown };
  const reason = typeof metadata.reason === 'string' ? metadata.reason : undefined;
  // The server's answer of the one name rule (as for delivery files): the reason in `nameProblem`.
  if (error.status === 400 && metadata.field === 'name' && reason === 'invalidFileName') {
    return { key: isNameProblem(metadata.nameProblem) ? `errors.name.${metadata.nameProblem}` : 'errors.name.invalidCharacters', field: 'name' };
  }
  if (error.status === 409 && reason === 'nameExists') return { key: metadata.kind === 'folder' ? 'errors.folderExists' : metadata.kind === 'file' ? 'errors.fileExists' : 'errors.roomExists', field: 'name' };
  if (error.errorClass === 'InviteUserToShareException') return { key: 'errors.notRegistered', field: 'user' };
  if (error.status === 400 && (reason === 'moveToOtherRoom' || reason === 'moveIntoItself')) return { key: `errors.${reason}` };
  // A plain call on a Secure room (server rooms/kind/room-kind.ts): where it opens instead.
  if (error.status === 409 && reason === 'encryptedRoom') return { key: 'errors.secureRoom' };
  if (error.status === 409 && reason === 'lastOwner') return { key: 'errors.lastOwner' };
  if (error.status === 409 && reason === 'parentInTrash') return { key: 'errors.parentInTrash' };
  if (error.status === 409 && reason === 'confirmOwnChange') return { key: 'errors.confirmOwnChange' };
  if (error.status === 409 && reason === 'versionConflict') return { key: 'errors.versionConflict' };
  if (error.errorClass === 'LicenseLimitExceededException') return { key: 'errors.licence' };
  if (error.status === 507) {
    // SPEC §8 GlobalQuotaReachedException "shows space available and required" (as a delivery's send does).
    const { spaceAvailable, spaceRequired } = metadata;
    if (typeof spaceAvailable !== 'number' || typeof spaceRequired !== 'number') return { key: 'errors.storageFull' };
    return { key: 'errors.storageFullFigures', values: { spaceAvailable: formatSize(spaceAvailable, language), spaceRequired: formatSize(spaceRequired, language) } };
  }
  if (error.status === 403) return { key: 'errors.forbidden' };
  if (error.status === 404) return { key: 'errors.notFound' };
  if (error.status === 400) return { key: 'errors.invalid' };
  return { key: 'errors.general' };
}

/** The failure of an upload as the transfer store keeps it (key and values, no text): names the file, with the figures of a full storage. */
export function roomUploadFailure(error: unknown, name: string, language: string): { key: string; values: Record<string, unknown> } {
  const text = roomErrorText(error, language);
  return { key: `rooms:${text.key}`, values: { ...text.values, name } };
}
