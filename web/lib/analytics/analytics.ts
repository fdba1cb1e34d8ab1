import { ANALYTICS_ACTIONS, type AnalyticsAction, type AnalyticsProperties } from './actions';
import { amplitudeOptions, hashedUserId, pageOf, type AnalyticsSettings } from './settings';

/**
 * Opt-in analytics (issue 17 §4, SPEC §7–9, DESIGN §9): the vendor's browser SDK, loaded by a
 * dynamic import into its own chunk (`analytics`) only once the profile enables it. While it is
 * off nothing is loaded, nothing is stored and `track()` returns at once.
 */
type Sdk = typeof import('@amplitude/analytics-browser');

/** SPEC §9: events tracked before the SDK is ready wait in a queue of at most 512. */
const PRE_INIT_QUEUE_CAP = 512;

let enabled = false;
let paused = false;
let failed = false;
let sdk: Sdk | null = null;
let starting: Promise<void> | null = null;
let currentUser: string | undefined;
let pending: { action: AnalyticsAction; properties: AnalyticsProperties }[] = [];

function send(action: AnalyticsAction, properties: AnalyticsProperties): void {
  // The SDK handles its upload answers itself (SPEC §8: 429 waits, 413 halves the batch, 5xx retries).
  void sdk!.track(action, { ...properties }).promise;
}

async function start(settings: AnalyticsSettings, userUuid: string | null): Promise<void> {
  try {
    currentUser = userUuid ? await hashedUserId(userUuid) : undefined;
    const loaded = await import(/* webpackChunkName: "analytics" */ '@amplitude/analytics-browser');
    await loaded.init(settings.apiKey, currentUser, amplitudeOptions(settings, window.location.hostname)).promise;
    if (settings.customerId) loaded.setGroup('customer_id', settings.customerId);
    sdk = loaded;
    // Withdrawn while the SDK was loading.
    if (paused) loaded.setOptOut(true);
    for (const event of pending) send(event.action, event.properties);
  } catch (error) {
    failed = true;
    console.error('Analytics could not be initialised', error);
  } finally {
    pending = [];
  }
}

/**
 * Starts analytics once when `settings` is set (the profile enabled it) and keeps the user's
 * identity (the hashed id) in step with the signed-in user; null settings keep it off.
 */
export async function syncAnalytics(settings: AnalyticsSettings | null, userUuid: string | null): Promise<void> {
  if (!settings) return;
  if (paused) {
    // Allowed again after a withdrawal on this page: the loaded SDK sends again.
    paused = false;
    enabled = true;
    sdk?.setOptOut(false);
  }
  if (!starting) {
    enabled = true;
    starting = start(settings, userUuid);
    return starting;
  }
  await starting;
  if (!sdk) return;
  const next = userUuid ? await hashedUserId(userUuid) : undefined;
  if (next === currentUser) return;
  currentUser = next;
  // Signed out: a fresh device id, so the next user on this browser is not linked to the last.
  if (next === undefined) sdk.reset();
  else sdk.setUserId(next);
}

/**
 * The visitor withdrew consent: nothing more is queued or sent (the SDK, if loaded, is opted out,
 * which also drops what it had not sent yet).
 */
export function pauseAnalytics(): void {
  if (!enabled) return;
  paused = true;
  enabled = false;
  pending = [];
  sdk?.setOptOut(true);
}

/** Reports an action (ANALYTICS_ACTIONS); does nothing while analytics is off. */
export function track(action: AnalyticsAction, properties: AnalyticsProperties = {}): void {
  if (!enabled) return;
  if (failed) {
    // SPEC §8: "Analytics not initialised: console error".
    console.error(`Analytics not initialised: "${action}" is not sent`);
    return;
  }
  if (sdk) send(action, properties);
  else if (pending.length < PRE_INIT_QUEUE_CAP) pending.push({ action, properties });
}

/** A page view names the route's path with its ids replaced, never the query or the fragment. */
export function trackPageView(pathname: string): void {
  track(ANALYTICS_ACTIONS.pageViewed, { page: pageOf(pathname) });
}
