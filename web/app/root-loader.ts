import { authStore } from '@web/lib/auth';
import { configFlag, loadConfig } from '@web/lib/config-store';
import { CONFIG_KEYS } from '@shared/contract/config';
import { LANGUAGES } from '@shared/contract/constants';
import { mergeHandles } from '@web/lib/route-handle';
import { termsConsentFor } from '@web/lib/terms-consent';
import { LEGACY_PAGES, loginPathFor, ROUTES, termsPathFor } from '@web/lib/routes';
import { matchRoutes, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';

/** What the root loader tells the shell. */
export interface RootLoaderData {
  /** The matched route needs a role the user lacks: the shell renders the message instead of the page. */
  insufficientRights: boolean;
  /** The address matched a route only by an unknown locale: the shell renders the not-found page. */
  notFound?: boolean;
}

/**
 * Runs before every navigation (root route, always revalidated): loads config and auth state
 * the first time, reloads the signed-in user afterwards (SPEC §2), then applies the guards
 * the matched routes declare in their `handle`.
 */
export function createRootLoader(getRoutes: () => RouteObject[]) {
  return async function rootLoader({ request }: LoaderFunctionArgs) {
    const auth = authStore.getState();
    const [config] = await Promise.all([
      loadConfig(),
      auth.initialized ? (auth.user ? authStore.reloadUser() : null) : authStore.initialize(),
    ]);
    const wizardFinished = config.config[CONFIG_KEYS.wizardFinished];
    if (config.status === 'loaded' && (wizardFinished === false || wizardFinished === 'false')) {
      window.location.assign(LEGACY_PAGES.wizard);
      return null;
    }
    const url = new URL(request.url);
    const matches = matchRoutes(getRoutes(), url.pathname) ?? [];
    const handle = mergeHandles(matches.map((match) => match.route.handle));
    // `:locale` is de, en or fr only (SPEC §2 `/secumails/:locale(de|en|fr)?`): any other segment is an unknown address.
    const locale = matches.at(-1)?.params.locale;
    if (locale !== undefined && !(LANGUAGES as readonly string[]).includes(locale)) return { insufficientRights: false, notFound: true } satisfies RootLoaderData;
    const user = authStore.getState().user;
    // The router leaves the fragment out of the loader's request, but a mailed link's one-time
    // token lives there (`#dar=…`, issue 28): on the first load the address bar still has it.
    const hash = url.hash || (window.location.pathname === url.pathname ? window.location.hash : '');
    if (handle.auth && !user) throw redirect(loginPathFor(`${url.pathname}${url.search}${hash}`));
    // Terms of use in force that this user has not agreed to yet (issue 34): asked before any page.
    if (handle.auth && user && (await termsConsentFor(user.uuid))?.required) throw redirect(termsPathFor(`${url.pathname}${url.search}${hash}`));
    if (handle.releaseFlag && !configFlag(config.config, handle.releaseFlag)) throw redirect(ROUTES.inbox);
    // SPEC §6: the shell shows the insufficient-rights message in place of the page.
    if (handle.roles && !handle.roles.some((role) => user?.roleNames.includes(role))) return { insufficientRights: true } satisfies RootLoaderData;
    return null;
  };
}
