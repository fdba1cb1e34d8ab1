// "Keep both" in the version-conflict dialog (plain rooms): the names an upload tries when its own
// is taken. The browser picks the candidate, the server's announce answers 409 `nameExists` while
// it is taken (among live folders and files, uploading ones too, checked with the insert under a
// per-room lock), so neither the files of one batch nor racing uploads ever get the same name.
import { ROOM_NAME_MAX } from '@shared/contract/rooms';

/** How many keep-both names are tried before the upload gives up (each is one announce). */
export const KEEP_BOTH_TRIES = 100;

/**
 * The names "keep both" tries for a taken name, in order: "a.txt" and "a (1).txt" both count from
 * "a" — "a (1).txt", "a (2).txt", … (never "a (1) (1).txt"), skipping the taken name itself; the
 * stem is shortened where a number would push the name past ROOM_NAME_MAX (UTF-16 units, as the
 * server counts). The server's 409 decides what is taken; the caller walks on while it says so.
 */
export function keepBothNames(name: string, tries = KEEP_BOTH_TRIES): string[] {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const base = /^(.*\S) \(\d+\)$/.exec(stem)?.[1] ?? stem;
  const names: string[] = [];
  for (let n = 1; names.length < tries; n++) {
    const suffix = ` (${n})${ext}`;
    // UTF-16 units, as the name rule counts; shortened by whole code points (no half surrogate pair).
    const room = ROOM_NAME_MAX - suffix.length;
    const chars = [...base];
    while (chars.length > 1 && chars.join('').length > room) chars.pop();
    const candidate = (chars.length < [...base].length ? chars.join('').trimEnd() : base) + suffix;
    if (candidate.toLowerCase() !== name.toLowerCase()) names.push(candidate);
  }
  return names;
}
