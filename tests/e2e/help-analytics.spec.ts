// Product help and opt-in analytics (issue 17 §4). Help opens the product-help widget from a
// stand-in endpoint when the operator configured one and the bundled help page when not; the
// analytics SDK sends page views and actions to a stand-in collector only when enabled and the visitor
// allowed it on the consent banner (declined: nothing loads; the settings page changes it), shrugs off
// its 429 and 413 answers (SPEC §8), and without the setting no request leaves the server's origin.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, Request } from '@playwright/test';
import { createUser } from '@tests/integration/escalation-helpers';
import { startTestServer } from '@tests/support/server';
import { en, expect, expectNoRawKeyTexts, expectNoSeriousA11yViolations, locale, signInToInbox, test, type TestServer } from './fixtures';

const enHelp = locale<typeof import('@locales/en/help.json')>('en', 'help');

test.describe.configure({ mode: 'serial' });

interface Upload {
  api_key: string;
  events: { event_type: string; user_id?: string; event_properties?: Record<string, unknown>; groups?: Record<string, unknown> }[];
  options?: { min_id_length?: number };
  client_upload_time?: string;
}

/** A stand-in for the widget's host and the analytics collector: serves the widget script, records uploads, answers queued statuses. */
class StandIn {
  readonly uploads: Upload[] = [];
  readonly statuses: number[] = [];
  readonly answered: number[] = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', 'content-type, accept');
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    if (request.method === 'GET' && request.url === '/widget.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(WIDGET_SCRIPT);
      return;
    }
    if (request.method === 'POST' && request.url === '/2/httpapi') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const upload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Upload;
      const status = this.statuses.shift() ?? 200;
      this.answered.push(status);
      if (status === 200) this.uploads.push(upload);
      const body =
        status === 200
          ? { code: 200, events_ingested: upload.events.length, payload_size_bytes: 1, server_upload_time: Date.now() }
          : status === 429
            ? { code: 429, error: 'Too many requests for some devices and users', eps_threshold: 1, throttled_events: [0], throttled_devices: {}, throttled_users: {}, exceeded_daily_quota_devices: {}, exceeded_daily_quota_users: {} }
            : { code: status, error: 'Payload too large' };
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    response.writeHead(404).end();
  }

  events(): Upload['events'] {
    return this.uploads.flatMap((upload) => upload.events);
  }
}

/** The widget: records what it was initialised with and opens a labelled panel. */
const WIDGET_SCRIPT = `
window.ProductHelp = {
  init(options) { window.__productHelpInit = options; },
  open() {
    let panel = document.getElementById('stand-in-help');
    if (!panel) {
      panel = document.createElement('div');
      panel.id = 'stand-in-help';
      panel.setAttribute('role', 'dialog');
      panel.setAttribute('aria-label', 'Stand-in help centre');
      document.body.append(panel);
    }
    panel.textContent = 'Workspace ' + window.__productHelpInit.workspaceCode;
  },
};`;

/** Every request the page makes, to prove which hosts it talked to. */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
}

/** Requests for the analytics SDK's chunk or to the collector: none may happen before consent. */
const analyticsRequests = (requests: Request[], collector: string) => requests.filter((r) => r.url().startsWith(collector) || /\/analytics\.[0-9a-f]+\.chunk\.js$/.test(new URL(r.url()).pathname));

/** The consent banner on the login page: nothing of analytics has loaded yet; the answer is given. */
async function answerConsent(page: Page, server: TestServer, requests: Request[], collector: string, answer: 'allow' | 'decline'): Promise<void> {
  await page.goto(`${server.url}/auth/login`);
  const banner = page.getByRole('region', { name: en.shell.analyticsConsent.label });
  await expect(banner).toContainText(new URL(collector).host);
  expect(analyticsRequests(requests, collector)).toEqual([]);
  await banner.getByRole('button', { name: answer === 'allow' ? en.shell.analyticsConsent.allow : en.shell.analyticsConsent.decline }).click();
  await expect(banner).toBeHidden();
}

const origins = (requests: Request[]) => [...new Set(requests.map((r) => new URL(r.url()).origin).filter((o) => o.startsWith('http')))];
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function openHelpFromMenu(page: Page): Promise<void> {
  await page.getByRole('link', { name: en.shell.menu.help }).first().click();
  await expect(page).toHaveURL(/\/help$/);
}

test.describe('not configured (the default)', () => {
  let server: TestServer;
  test.beforeAll(async () => {
    server = await startTestServer();
  });
  test.afterAll(async () => server?.close());

  test('Help opens the bundled help; no request leaves the server and the analytics SDK is never loaded', async ({ page }) => {
    const requests = recordRequests(page);
    const user = await createUser(server, { username: 'helpreader' });
    await signInToInbox(page, server, user);
    await openHelpFromMenu(page);

    await expect(page.getByRole('heading', { level: 1, name: enHelp.title })).toBeVisible();
    await expect(page.getByTestId('bundled-help')).toBeVisible();
    for (const section of [enHelp.sections.sending, enHelp.sections.receiving, enHelp.sections.passphrase, enHelp.sections.addinInstall]) {
      await expect(page.getByRole('heading', { level: 3, name: section.title })).toBeVisible();
    }
    await expect(page.getByRole('heading', { level: 2, name: enHelp.audience.it })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'bundled help');

    // Keyboard: the contents link to the passphrase section is reachable and follows on Enter.
    const contents = page.getByRole('navigation', { name: enHelp.contents });
    const link = contents.getByRole('link', { name: enHelp.sections.passphrase.title });
    await link.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#help-passphrase$/);
    await expect(page.getByRole('heading', { level: 3, name: enHelp.sections.passphrase.title })).toBeInViewport();

    // Moving around does not change anything: still only the server's own origin.
    await page.getByRole('link', { name: en.shell.menu.secureMails }).first().click();
    await expect(page).toHaveURL(/\/secumails\//);
    expect(origins(requests)).toEqual([server.url]);
    expect(requests.filter((r) => /analytics/i.test(r.url()))).toEqual([]);
    expect(await page.evaluate(() => document.cookie)).not.toMatch(/AMP_/);
  });

  test('the bundled help in German and French: translated, no raw key', async ({ browser }) => {
    for (const language of ['de', 'fr'] as const) {
      const texts = locale<typeof enHelp>(language, 'help');
      const page = await (await browser.newContext()).newPage();
      const user = await createUser(server, { username: `helpreader-${language}`, language });
      await signInToInbox(page, server, user);
      // The stored interface language (SPEC §7) decides on the next load.
      await page.evaluate((code) => window.localStorage.setItem('language', code), language);
      await page.goto(`${server.url}/help`);
      await expect(page.getByRole('heading', { level: 1, name: texts.title })).toBeVisible();
      await expect(page.getByRole('heading', { level: 3, name: texts.sections.addinInstall.title })).toBeVisible();
      await expect(page.getByText(texts.sections.addinInstall.steps[0]!)).toBeVisible();
      await expectNoRawKeyTexts(page, `bundled help (${language})`);
      await page.context().close();
    }
  });
});

test.describe('configured by the operator', () => {
  const standIn = new StandIn();
  let server: TestServer;
  test.beforeAll(async () => {
    await standIn.start();
    server = await startTestServer({
      config: {
        productHelpEndpoint: `${standIn.url}/widget.js`,
        productHelpWorkspaceCode: 'WS-4711',
        analyticsEnabled: true,
        analyticsApiKey: 'stand-in-key',
        analyticsUrl: `${standIn.url}/2/httpapi`,
        customerId: 'customer-42',
      },
    });
  });
  test.afterAll(async () => {
    await server?.close();
    await standIn.stop();
  });

  test('Help opens the widget with workspace, language and the hashed user; analytics sends page views and actions', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const requests = recordRequests(page);
    const user = await createUser(server, { username: 'helpwidget', roles: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_OUTLOOK'] });
    const row = await server.app.users.findByLogin(user.email);
    const hashed = sha256(row!.uuid);

    // Analytics asks first (issue 33 §2): the banner on the login page, nothing loaded before "Allow".
    await answerConsent(page, server, requests, `${standIn.url}/2/httpapi`, 'allow');
    await expectNoSeriousA11yViolations(page, 'login page after the analytics answer');
    await signInToInbox(page, server, user);
    await openHelpFromMenu(page);
    await expect(page.getByRole('dialog', { name: 'Stand-in help centre' })).toHaveText('Workspace WS-4711');
    await expect(page.getByText(enHelp.widget.opened)).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __productHelpInit: unknown }).__productHelpInit)).toEqual({
      workspaceCode: 'WS-4711',
      language: 'en',
      user: { id: hashed, tags: ['outlook'] },
    });
    await expect(page.getByTestId('bundled-help')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'help with the widget');

    await expect.poll(() => standIn.events().map((e) => e.event_type)).toEqual(expect.arrayContaining(['Page Viewed', 'Help Opened', 'Login Button']));
    const upload = standIn.uploads[0]!;
    expect(upload.api_key).toBe('stand-in-key');
    expect(typeof upload.client_upload_time).toBe('string');
    const pages = standIn.events().filter((e) => e.event_type === 'Page Viewed');
    expect(pages.map((e) => e.event_properties?.page)).toEqual(expect.arrayContaining(['/secumails/inbox', '/help']));
    // Before the sign-in the login page is anonymous; afterwards every event carries the hashed id.
    const tracked = standIn.events().filter((e) => !e.event_type.startsWith('$'));
    // The customer_id group is set once (an identify event the SDK sends with the group).
    const summary = JSON.stringify(standIn.events().map((e) => [e.event_type, e.groups, e.user_id]));
    expect(standIn.events().some((e) => e.event_type === '$identify' && e.groups?.customer_id === 'customer-42'), summary).toBe(true);
    expect(new Set(tracked.map((e) => e.user_id ?? null))).toEqual(new Set(tracked.some((e) => !e.user_id) ? [null, hashed] : [hashed]));
    // The login page's own actions (its page view, the Login Button of SPEC §9) come before the user is known.
    expect(tracked.find((e) => e.event_type === 'Login Button')?.user_id ?? null).toBeNull();
    const beforeSignIn = (e: (typeof tracked)[number]) => e.event_type === 'Login Button' || (e.event_type === 'Page Viewed' && e.event_properties?.page === '/auth/login');
    for (const event of tracked.filter((e) => !beforeSignIn(e))) expect(event.user_id).toBe(hashed);
    expect(standIn.events().find((e) => e.event_type === 'Help Opened')?.event_properties).toEqual({ kind: 'widget' });
    // Nothing names the user: no email, no uuid in any upload.
    expect(JSON.stringify(standIn.uploads)).not.toContain(user.email);
    expect(JSON.stringify(standIn.uploads)).not.toContain(row!.uuid);
    // Only the server and the stand-in were contacted.
    expect(origins(requests).sort()).toEqual([server.url, standIn.url].sort());
    expect(errors).toEqual([]);
  });

  test('declined, analytics never loads nor sends; the settings page allows it later and withdraws it again (issue 33 §2)', async ({ page }) => {
    const requests = recordRequests(page);
    const collector = `${standIn.url}/2/httpapi`;
    const user = await createUser(server, { username: 'helpdeclined' });
    await answerConsent(page, server, requests, collector, 'decline');
    await signInToInbox(page, server, user);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: en.shell.analyticsConsent.label })).toHaveCount(0);
    await page.goto(`${server.url}/settings`);
    const allow = page.getByRole('switch', { name: en.settings.analytics.allow });
    await expect(allow).not.toBeChecked();
    expect(analyticsRequests(requests, collector)).toEqual([]);
    await expectNoSeriousA11yViolations(page, 'settings with the analytics switch');

    await allow.click();
    await expect(allow).toBeChecked();
    await expect.poll(() => requests.filter((r) => r.url().startsWith(collector)).length, { timeout: 30_000 }).toBeGreaterThan(0);
    await allow.click();
    await expect(allow).not.toBeChecked();
    expect(await page.evaluate(() => window.localStorage.getItem('kuvert.analyticsConsent'))).toBe('denied');
  });

  test('the administration page says that analytics and the help widget are switched on (issue 33 §2)', async ({ page }) => {
    await signInToInbox(page, server, server.admin);
    await page.goto(`${server.url}/admin`);
    await expect(page.getByText(en.shell.admin.analyticsOn.replace('{{url}}', `${standIn.url}/2/httpapi`))).toBeVisible();
    await expect(page.getByText(en.shell.admin.helpWidgetOn.replace('{{url}}', `${standIn.url}/widget.js`))).toBeVisible();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoSeriousA11yViolations(page, `administration with third parties on, ${width} px`);
    }
  });

  test('a 429 and a 413 from the collector do not break the app', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const user = await createUser(server, { username: 'helpthrottled' });
    // 413 first: the SDK halves the batch (or drops a single event) and goes on; after a 429 it waits 30 s.
    standIn.statuses.push(413, 429);
    const answeredBefore = standIn.answered.length;

    await answerConsent(page, server, recordRequests(page), `${standIn.url}/2/httpapi`, 'allow');
    await signInToInbox(page, server, user);
    await openHelpFromMenu(page);
    await expect(page.getByRole('dialog', { name: 'Stand-in help centre' })).toBeVisible();
    await expect.poll(() => standIn.answered.slice(answeredBefore, answeredBefore + 2)).toEqual([413, 429]);

    // The app goes on: navigation, the widget again, the inbox.
    await page.getByRole('button', { name: enHelp.widget.openAgain }).click();
    await expect(page.getByText(enHelp.widget.opened)).toBeVisible();
    await page.getByRole('link', { name: en.shell.menu.secureMails }).first().click();
    await expect(page).toHaveURL(/\/secumails\/inbox/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(errors).toEqual([]);
  });
});
