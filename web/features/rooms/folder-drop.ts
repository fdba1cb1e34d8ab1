import { isApiError } from '@shared/api/api-error';
import type { RoomContents } from '@shared/contract/rooms';
import { createFolder } from './api/rooms';

/** A file to upload with the folders (names, top first) it lies in below the drop target; `file` null: a folder (kept even when empty). */
export interface PlacedFile {
  file: File | null;
  dirs: string[];
}

/** The folder paths (joined with '/') a set of placed files needs, parents before children. */
export function foldersToCreate(files: readonly PlacedFile[]): string[][] {
  const seen = new Map<string, string[]>();
  for (const { dirs } of files) {
    for (let depth = 1; depth <= dirs.length; depth++) {
      const path = dirs.slice(0, depth);
      seen.set(path.join('/'), path);
    }
  }
  return [...seen.values()].sort((a, b) => a.length - b.length);
}

/** Files of a folder picker (`webkitdirectory`): each file's relative path gives its folders. */
export const placedFromPicker = (files: readonly File[]): PlacedFile[] =>
  files.map((file) => ({ file, dirs: (file.webkitRelativePath || file.name).split('/').slice(0, -1) }));

const readEntries = (reader: FileSystemDirectoryReader) => new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/**
 * A dropped folder the browser could not read (SPEC §8 "local folder unreadable"): moved or
 * deleted since, no permission, a file in it gone. `folderName` is the folder that failed (the
 * file's folder when a file in it did); nothing of the drop is uploaded.
 */
export class FolderUnreadableError extends Error {
  constructor(readonly folderName: string, cause: unknown) {
    super(`The local folder “${folderName}” could not be read`, { cause });
    this.name = 'FolderUnreadableError';
  }
}

/** What to tell when reading a drop failed: the folder that could not be read, else the general message. */
export const dropReadFailure = (error: unknown): { key: string; values?: { name: string } } =>
  error instanceof FolderUnreadableError ? { key: 'rooms:errors.folderUnreadable', values: { name: error.folderName } } : { key: 'rooms:errors.general' };

async function readOrSay<T>(folderName: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw error instanceof FolderUnreadableError ? error : new FolderUnreadableError(folderName, error);
  }
}

async function walk(entry: FileSystemEntry, dirs: string[], out: PlacedFile[]): Promise<void> {
  if (entry.isFile) {
    // A file dropped alone that cannot be read is named as such (its "folder" is itself).
    out.push({ file: await readOrSay(dirs.at(-1) ?? entry.name, () => fileOf(entry as FileSystemFileEntry)), dirs });
    return;
  }
  if (!entry.isDirectory) return;
  const here = [...dirs, entry.name];
  // An empty folder is still created.
  out.push({ file: null, dirs: here });
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const next = () => readOrSay(entry.name, () => readEntries(reader));
  // readEntries answers in batches (about 100 in Chromium) until an empty one.
  for (let batch = await next(); batch.length > 0; batch = await next()) {
    for (const child of batch) await walk(child, here, out);
  }
}

/**
 * Items of a drop that came without a file-system entry (`webkitGetAsEntry()` null, as some file
 * managers hand them over) and cannot be read as files: folders whose tree the browser did not give.
 * The drop is refused with their names rather than flattened or left out silently (issue 32 §1).
 */
export class UnreadableDropError extends Error {
  constructor(readonly names: string[]) {
    super(`Unreadable drop items: ${names.join(', ')}`);
  }
}

/** A dropped File without an entry may be a folder: reading its first byte fails then. */
async function readable(file: File): Promise<boolean> {
  try {
    await file.slice(0, 1).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * What a drop holds: files, and folders walked through `webkitGetAsEntry` (their tree kept). An item
 * without an entry keeps its folders from `webkitRelativePath` when the browser knows it; a folder it
 * cannot read throws UnreadableDropError (nothing of that drop is uploaded).
 * Entries must be taken from the DataTransfer synchronously, before the first await.
 */
export async function placedFromDrop(data: DataTransfer): Promise<PlacedFile[]> {
  const entries = [...data.items].filter((item) => item.kind === 'file').map((item) => ({ entry: item.webkitGetAsEntry?.() ?? null, file: item.getAsFile() }));
  const out: PlacedFile[] = [];
  const unreadable: string[] = [];
  for (const { entry, file } of entries) {
    if (entry) await walk(entry, [], out);
    else if (file?.webkitRelativePath) out.push(...placedFromPicker([file]));
    else if (file && (await readable(file))) out.push({ file, dirs: [] });
    else unreadable.push(file?.name ?? '?');
  }
  if (unreadable.length > 0) throw new UnreadableDropError(unreadable);
  return out;
}

/**
 * Creates the folder tree below the target (parents first); a folder that already exists there is
 * used as it is. Answers the folder uuid of each path ('' = the target itself).
 */
export async function createFolderTree(contents: RoomContents, paths: readonly string[][], lookup: (parentUuid: string | null) => Promise<RoomContents>): Promise<Map<string, string | null>> {
  const roomUuid = contents.room.uuid;
  const uuidOf = new Map<string, string | null>([['', contents.folder?.uuid ?? null]]);
  for (const path of paths) {
    const parent = uuidOf.get(path.slice(0, -1).join('/')) ?? null;
    const name = path.at(-1)!;
    try {
      uuidOf.set(path.join('/'), (await createFolder(roomUuid, name, parent)).uuid);
    } catch (error) {
      const exists = isApiError(error) && error.status === 409 && (error.error?.metadata as { kind?: unknown } | undefined)?.kind === 'folder';
      if (!exists) throw Object.assign(error as object, { folderName: name });
      const there = (await lookup(parent)).folders.find((f) => f.name.toLowerCase() === name.toLowerCase());
      if (!there) throw error;
      uuidOf.set(path.join('/'), there.uuid);
    }
  }
  return uuidOf;
}
