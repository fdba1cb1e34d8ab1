import { THEME_PROFILE_KEYS } from '@shared/contract/theme';
import { CONFIG_KEYS } from '@shared/contract/config';
import { parseFileTypeList } from '@shared/contract/file-policy';
import { DEFAULT_BLOCKED_EXTENSIONS, DEFAULT_BLOCKED_MIME_TYPES } from '@server/settings/defaults';
import { LANGUAGES, MS_PER_DAY } from '@shared/contract/constants';
import { AUTHORIZATION_ERROR } from '@shared/contract/errors';
import { SECRET_MASK, SETTING_KEYS } from '@shared/contract/settings';
import { EXTERNAL_SETTING_KEYS } from '@shared/contract/external';
import { sendConfigFixture } from '@shared/rules/test-fixtures';
import { proveAddress } from '@tests/support/prove-address';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, postAuth, signIn, signInAdmin, type Session } from './core-helpers';

let server: TestServer;
let admin: Session;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
});
afterAll(() => server?.close());

const PER_LANGUAGE = new Set<string>([CONFIG_KEYS.maintenanceTitle, CONFIG_KEYS.maintenanceContent]);
// SPEC §3's keys, plus the current logo and favicon URLs the theme serves (server/theme).
const expectedProfileKeys = [
  ...Object.values(CONFIG_KEYS).flatMap((key) => (PER_LANGUAGE.has(key) ? LANGUAGES.map((l) => `${key}.${l}`) : [key])),
  ...Object.values(THEME_PROFILE_KEYS),
];

describe('GET /api/2/config/profile', () => {
  it('is public and holds every ftapi.* key of SPEC §3 with the defaults', async () => {
    const response = await fetch(`${server.url}/api/2/config/profile`);
    expect(response.status).toBe(200);
    const { config } = await response.json();
    expect(Object.keys(config).sort()).toEqual([...expectedProfileKeys].sort());
    expect(config).toMatchObject({
      [CONFIG_KEYS.wizardFinished]: true, // the test server creates the first admin non-interactively
      [CONFIG_KEYS.webUiTitle]: 'Kuvert',
      [CONFIG_KEYS.maintenanceActivated]: false,
      [CONFIG_KEYS.maintenanceStartDate]: null,
      [CONFIG_KEYS.themeColor]: '#19853F',
      [CONFIG_KEYS.themeHoverColor]: '#0B7530',
    });
  });

  it('reflects admin changes (maintenance banner)', async () => {
    const response = await call(server, admin, 'PUT', '/api/2/admin/settings', {
      [CONFIG_KEYS.maintenanceActivated]: true,
      [`${CONFIG_KEYS.maintenanceTitle}.en`]: 'Maintenance tonight',
      [CONFIG_KEYS.maintenanceStartDate]: '2026-01-01T00:00:00Z',
    });
    expect(response.status).toBe(200);
    const { config } = await (await fetch(`${server.url}/api/2/config/profile`)).json();
    expect(config[CONFIG_KEYS.maintenanceActivated]).toBe(true);
    expect(config[`${CONFIG_KEYS.maintenanceTitle}.en`]).toBe('Maintenance tonight');
    expect(config[CONFIG_KEYS.maintenanceStartDate]).toBe('2026-01-01T00:00:00Z');
  });
});

describe('the SMTP password in admin settings', () => {
  const url = (settings: Record<string, unknown>) => settings[SETTING_KEYS.mailSmtpUrl];
  const put = async (update: Record<string, unknown>) => call(server, admin, 'PUT', '/api/2/admin/settings', update);

  it('is answered masked, kept when sent back masked, replaced when typed, refused masked with nothing stored', async () => {
    // Nothing stored yet: a masked password has nothing to stand for.
    const refused = await expectBackendError(await put({ [SETTING_KEYS.mailSmtpUrl]: `smtp://mailer:${SECRET_MASK}@mail.example.test:587` }), 400, 'ValidationException');
    expect(JSON.stringify(refused.metadata)).toContain(SETTING_KEYS.mailSmtpUrl);

    const saved = await put({ [SETTING_KEYS.mailTransport]: 'smtp', [SETTING_KEYS.mailSmtpUrl]: 'smtp://mailer:S3cret-pw@mail.example.test:587' });
    expect(saved.status).toBe(200);
    expect(url((await saved.json()).settings)).toBe(`smtp://mailer:${SECRET_MASK}@mail.example.test:587`);
    const listed = await call(server, admin, 'GET', '/api/2/admin/settings');
    const body = await listed.text();
    expect(body).not.toContain('S3cret-pw');
    expect(url(JSON.parse(body).settings)).toBe(`smtp://mailer:${SECRET_MASK}@mail.example.test:587`);
    expect(url(await server.app.settings.getAll())).toBe('smtp://mailer:S3cret-pw@mail.example.test:587');

    // Another host, the password left masked: the stored one stays.
    expect((await put({ [SETTING_KEYS.mailSmtpUrl]: `smtps://mailer:${SECRET_MASK}@relay.example.test:465` })).status).toBe(200);
    expect(url(await server.app.settings.getAll())).toBe('smtps://mailer:S3cret-pw@relay.example.test:465');
    // A typed password replaces it; a URL without one is stored as it is.
    expect((await put({ [SETTING_KEYS.mailSmtpUrl]: 'smtps://mailer:N3w-pw@relay.example.test:465' })).status).toBe(200);
    expect(url(await server.app.settings.getAll())).toBe('smtps://mailer:N3w-pw@relay.example.test:465');
    expect((await put({ [SETTING_KEYS.mailTransport]: 'mailbox', [SETTING_KEYS.mailSmtpUrl]: null })).status).toBe(200);
    expect(url(await server.app.settings.getAll())).toBeNull();
  });
});

describe('GET /api/2/delivery/send/config', () => {
  it('needs a session', async () => {
    await expectBackendError(await fetch(`${server.url}/api/2/delivery/send/config`), 401);
  });

  it('answers the defaults: levels 1–4, cleanup 1 to 365 days in ms', async () => {
    const response = await call(server, admin, 'GET', '/api/2/delivery/send/config');
    expect(await response.json()).toEqual(
      sendConfigFixture({
        // The forbidden file types, so the send page marks them when they are added.
        filePolicy: { blockedExtensions: DEFAULT_BLOCKED_EXTENSIONS.split(','), blockedMimeTypes: parseFileTypeList(DEFAULT_BLOCKED_MIME_TYPES) },
        // The caller's own sender settings (server/deliveries/senders.ts).
        sender: { licensed: true, replyOnly: false, mayInvite: true, group: null },
      }),
    );
  });
});

describe('PUT /api/2/admin/settings', () => {
  it('refuses unknown keys and wrong types with 400, changing nothing', async () => {
    const unknown = await call(server, admin, 'PUT', '/api/2/admin/settings', { 'ftapi.nope': true, [CONFIG_KEYS.webUiTitle]: 'Changed' });
    const body = await expectBackendError(unknown, 400, 'ValidationException');
    expect(JSON.stringify(body.metadata)).toContain('ftapi.nope');
    const wrongType = await call(server, admin, 'PUT', '/api/2/admin/settings', { [CONFIG_KEYS.maintenanceActivated]: 'yes' });
    await expectBackendError(wrongType, 400);
    const badColour = await call(server, admin, 'PUT', '/api/2/admin/settings', { [CONFIG_KEYS.themeColor]: 'green' });
    await expectBackendError(badColour, 400);
    const { config } = await (await fetch(`${server.url}/api/2/config/profile`)).json();
    expect(config[CONFIG_KEYS.webUiTitle]).toBe('Kuvert');
  });

  it('refuses a maintenance notice colour that is not #RRGGBB (SPEC §5), naming the key; a hex colour is stored; only for administrators', async () => {
    const put = (session: Session, update: Record<string, unknown>) => call(server, session, 'PUT', '/api/2/admin/settings', update);
    for (const key of [CONFIG_KEYS.maintenanceBackgroundColor, CONFIG_KEYS.maintenanceTextColor, CONFIG_KEYS.maintenanceButtonColor]) {
      const refused = await expectBackendError(await put(admin, { [key]: 'red;background:url(//evil.test/x)' }), 400, 'ValidationException');
      expect(refused.message).toBe('Invalid settings');
      expect(refused.metadata).toEqual({ problems: [{ key, problem: 'must be a hex colour like #19853F' }] });
      expect((await (await fetch(`${server.url}/api/2/config/profile`)).json()).config[key]).toMatch(/^#[0-9A-F]{6}$/);
    }
    expect((await put(admin, { [CONFIG_KEYS.maintenanceButtonColor]: '#0B7530' })).status).toBe(200);
    expect((await (await fetch(`${server.url}/api/2/config/profile`)).json()).config[CONFIG_KEYS.maintenanceButtonColor]).toBe('#0B7530');
    await createUserAsAdmin(server, admin, { email: 'no-admin.colour@example.test' });
    const user = await signIn(server, 'no-admin.colour@example.test', 'Good-Passw0rd');
    await expectBackendError(await put(user, { [CONFIG_KEYS.maintenanceButtonColor]: '#000000' }), 403);
    expect((await (await fetch(`${server.url}/api/2/config/profile`)).json()).config[CONFIG_KEYS.maintenanceButtonColor]).toBe('#0B7530');
  });

  it('refuses a maximum validity below the minimum, also when only one of them changes', async () => {
    const both = await call(server, admin, 'PUT', '/api/2/admin/settings', {
      [SETTING_KEYS.deliveryCleanupExpirationMin]: 10 * MS_PER_DAY,
      [SETTING_KEYS.deliveryCleanupExpirationMax]: 5 * MS_PER_DAY,
    });
    const body = await expectBackendError(both, 400, 'ValidationException');
    expect(body.metadata).toEqual({ problems: [{ key: SETTING_KEYS.deliveryCleanupExpirationMax, problem: expect.stringContaining('minimum') }] });
    // The default minimum is one day: a maximum below it alone is refused too.
    await expectBackendError(await call(server, admin, 'PUT', '/api/2/admin/settings', { [SETTING_KEYS.deliveryCleanupExpirationMax]: MS_PER_DAY / 2 }), 400);
    const { settings } = await (await call(server, admin, 'GET', '/api/2/admin/settings')).json();
    expect(settings[SETTING_KEYS.deliveryCleanupExpirationMax]).toBe(365 * MS_PER_DAY);
    expect(settings[SETTING_KEYS.deliveryCleanupExpirationMin]).toBe(MS_PER_DAY);
  });

  it('refuses the download disclaimer switched on with every text empty (SPEC §8 shape, at the switch), accepts it with one text', async () => {
    const enabled = EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled;
    const text = (language: string) => `${EXTERNAL_SETTING_KEYS.downloadDisclaimerText}.${language}`;
    const settingsNow = async () => (await (await call(server, admin, 'GET', '/api/2/admin/settings')).json()).settings as Record<string, unknown>;
    // Only the switch (the texts are empty by default), and the switch with blank texts.
    for (const body of [{ [enabled]: true }, { [enabled]: true, [text('de')]: '  ', [text('en')]: '\n', [text('fr')]: '' }]) {
      const refused = await expectBackendError(await call(server, admin, 'PUT', '/api/2/admin/settings', body), 400, 'ValidationException');
      expect(refused.uuid).toEqual(expect.any(String));
      expect(refused.requestUri).toBe('/api/2/admin/settings');
      expect(refused.metadata).toEqual({ problems: [{ key: enabled, problem: expect.stringContaining('at least one language') }] });
      expect((await settingsNow())[enabled]).toBe(false);
    }
    // A non-administrator cannot change it at all.
    await createUserAsAdmin(server, admin, { email: 'no-admin.disclaimer@example.test' });
    const user = await signIn(server, 'no-admin.disclaimer@example.test', 'Good-Passw0rd');
    await expectBackendError(await call(server, user, 'PUT', '/api/2/admin/settings', { [enabled]: true, [text('en')]: 'Terms' }), 403);
    expect((await settingsNow())[enabled]).toBe(false);

    // One language is enough (the others fall back to it); then emptying that text while on is refused.
    expect((await call(server, admin, 'PUT', '/api/2/admin/settings', { [enabled]: true, [text('fr')]: 'Conditions de téléchargement' })).status).toBe(200);
    expect((await settingsNow())[enabled]).toBe(true);
    await expectBackendError(await call(server, admin, 'PUT', '/api/2/admin/settings', { [text('fr')]: ' ' }), 400, 'ValidationException');
    expect((await settingsNow())[text('fr')]).toBe('Conditions de téléchargement');
    // Switching it off with the texts emptied is fine.
    expect((await call(server, admin, 'PUT', '/api/2/admin/settings', { [enabled]: false, [text('fr')]: '' })).status).toBe(200);
  });

  it('lists every setting for administrators', async () => {
    const { settings } = await (await call(server, admin, 'GET', '/api/2/admin/settings')).json();
    expect(settings[SETTING_KEYS.passwordMinLength]).toBe(10);
    expect(settings[SETTING_KEYS.loginDisclaimerEnabled]).toBe(false);
  });
});

describe('POST /api/2/admin/users', () => {
  it('creates a user who signs in after proving the address, with SPEC §6 role names and an Argon2id hash', async () => {
    const response = await call(server, admin, 'POST', '/api/2/admin/users', {
      email: 'New.User@Example.test',
      password: 'Good-Passw0rd',
      firstName: 'New',
      language: 'fr',
      roleNames: ['ROLE_UI_USER', 'ROLE_SECUROOMS_USER'],
    });
    expect(response.status).toBe(201);
    const { user } = await response.json();
    expect(user).toMatchObject({ email: 'new.user@example.test', language: 'fr', roleNames: ['ROLE_UI_USER', 'ROLE_SECUROOMS_USER'], totpEnabled: false });
    const row = await server.app.users.findByLogin('new.user@example.test');
    expect(row?.password_hash).toMatch(/^\$argon2id\$/);
    // Made by someone else: the first sign-in asks for the code mailed to the address.
    expect(row?.email_verified).toBe(0);
    expect((await postAuth(server, 'new.user@example.test', 'Good-Passw0rd')).errors[0]?.authorizationError).toBe(AUTHORIZATION_ERROR.ACCOUNT_VERIFICATION_REQUIRED);
    await proveAddress(server, 'new.user@example.test', 'Good-Passw0rd');
    expect((await postAuth(server, 'new.user@example.test', 'Good-Passw0rd')).response.status).toBe(200);
  });

  it('enforces the password policy (min 10, upper, lower, digit)', async () => {
    for (const password of ['Short-1a', 'alllowercase-123', 'ALLUPPERCASE-123', 'No-Digits-Here']) {
      const response = await call(server, admin, 'POST', '/api/2/admin/users', { email: 'weak@example.test', password });
      const body = await expectBackendError(response, 400, 'ValidationException');
      expect(body.metadata.violations).toBeInstanceOf(Array);
    }
  });

  it('refuses a taken address or username with 409', async () => {
    await createUserAsAdmin(server, admin, { email: 'taken@example.test', username: 'taken' });
    await expectBackendError(await call(server, admin, 'POST', '/api/2/admin/users', { email: 'TAKEN@example.test', password: 'Good-Passw0rd' }), 409, 'ConflictException');
    await expectBackendError(
      await call(server, admin, 'POST', '/api/2/admin/users', { email: 'other@example.test', username: 'Taken', password: 'Good-Passw0rd' }),
      409,
    );
  });

  it('refuses unknown role names', async () => {
    const response = await call(server, admin, 'POST', '/api/2/admin/users', { email: 'r@example.test', password: 'Good-Passw0rd', roleNames: ['ROLE_GOD'] });
    await expectBackendError(response, 400);
  });

  it('a signed-in user keeps working after an admin changes settings (sessions are in the DB)', async () => {
    await createUserAsAdmin(server, admin, { email: 'steady@example.test' });
    const user = await signIn(server, 'steady@example.test', 'Good-Passw0rd');
    expect((await call(server, user, 'GET', '/api/2/user')).status).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('/api/2/openapi.json lists the SPEC §7 routes and the contract components', async () => {
    const response = await fetch(`${server.url}/api/2/openapi.json`);
    expect(response.status).toBe(200);
    const doc = await response.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of ['/api/2/auth', '/api/2/user', '/api/2/user/updateLoggedInUser', '/api/2/config/profile', '/api/2/delivery/send/config', '/api/2/admin/settings', '/api/2/admin/users']) {
      expect(Object.keys(doc.paths), path).toContain(path);
    }
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['User', 'BackendError', 'LoginResponse', 'ConfigProfileResponse']));
    expect(doc.paths['/api/2/auth'].post.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['j_auth_app_code', 'j_login_disclaimer_accepted']),
    );
  });
});
