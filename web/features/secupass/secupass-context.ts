import { ROUTES, safeContinueTarget, SECUMAILS_BASE } from '@web/lib/routes';
import { useSearchParams } from 'react-router';

/**
 * Where the create-SecuPass flow was entered from, read off its `continue` target (the page that
 * linked here and is offered back): a data room (encryption activation on /secure-rooms…), a
 * delivery (/secumails…: the download or inbox page of an E2E delivery), or anything else (neutral
 * text; a target elsewhere is still offered back as "Continue").
 */
export type SecuPassContext = { kind: 'room'; target: string; roomPage: boolean } | { kind: 'delivery'; target: string } | { kind: 'none'; target: string | null };

const under = (path: string, base: string) => path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}?`);

export function secuPassContextOf(value: string | null): SecuPassContext {
  const target = safeContinueTarget(value);
  if (!target) return { kind: 'none', target: null };
  const path = target.split(/[?#]/)[0] ?? '';
  if (under(path, ROUTES.secureRooms) || under(path, ROUTES.datarooms)) {
    // A room (or folder) page, not the list: "back to the data room" makes sense.
    return { kind: 'room', target, roomPage: path !== ROUTES.secureRooms && path !== ROUTES.datarooms };
  }
  if (under(path, SECUMAILS_BASE)) return { kind: 'delivery', target };
  return { kind: 'none', target };
}

export function useSecuPassContext(): SecuPassContext {
  const [params] = useSearchParams();
  return secuPassContextOf(params.get('continue'));
}

/** The approval-pending page's title key for its context (the page's heading says the same). */
export function approvalTitleKeyOf(search: URLSearchParams): string {
  const context = secuPassContextOf(search.get('continue'));
  // From the secure-rooms list (e.g. before a first own room) nobody has to grant anything.
  if (context.kind === 'room') return context.roomPage ? 'secupass:room.approvalTitle' : 'secupass:create.successTitle';
  return context.kind === 'none' ? 'secupass:create.successTitle' : 'secupass:approval.title';
}
