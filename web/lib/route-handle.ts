import type { RoleName } from '@shared/contract/constants';

/** What a route declares about itself; read by the root loader and the shell. */
export interface RouteHandle {
  /** i18n key of the page title ("ns:key"). */
  titleKey?: string;
  /** The title key when it depends on the URL's query (the page's words do): wins over `titleKey` when it returns one. */
  titleKeyFor?: (search: URLSearchParams) => string | undefined;
  /** Needs a signed-in user (SPEC §2 auth guard). */
  auth?: boolean;
  /** Needs one of these roles, else the inbox. */
  roles?: readonly RoleName[];
  /** Config key of a release flag that must be true, else the inbox (SPEC §2). */
  releaseFlag?: string;
  /** Minimal chrome (auth screens) instead of the full shell. */
  layout?: 'auth' | 'app';
  /** With `plain=1` in its URL the page shows without the header and banner (the embeddable public form). */
  plainAllowed?: boolean;
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null;
}

/** Handles of nested matches merged, inner ones winning. */
export function mergeHandles(handles: readonly unknown[]): RouteHandle {
  return handles.filter(isRouteHandle).reduce<RouteHandle>((merged, handle) => ({ ...merged, ...handle }), {});
}
