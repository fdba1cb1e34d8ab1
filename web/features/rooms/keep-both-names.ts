// "Keep both" in the version-conflict dialog (plain rooms): the names an upload tries when its own
// is taken. The browser picks the candidate, the server's announce answers 409 `nameExists` while
// it is taken (among live folders and files, uploading ones too, checked with the insert under a
// per-room lock), so neither the files of one batch nor racing uploads ever get the same name.
// The rule itself lives in shared/contract/names.ts: migration 0058 keeps NFC-alike names apart by it.
export { KEEP_BOTH_TRIES, keepBothNames } from '@shared/contract/names';
