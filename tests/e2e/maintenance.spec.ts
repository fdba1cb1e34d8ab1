// The maintenance banner (SPEC §2, §4), configured through the admin settings API: shown only
// when activated and between start and expiration date; dismissible.
import { CONFIG_KEYS } from '@shared/contract/config';
import { en, expect, expectInbox, expectNoSeriousA11yViolations, serverPerFile, setSettingsAsAdmin, submitLogin, test, type TestServer } from './fixtures';
import type { Page } from '@playwright/test';

const ctx = serverPerFile();
test.describe.configure({ mode: 'serial' });

const HOUR = 60 * 60 * 1000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

async function configureMaintenance(server: TestServer, title: string, startDate: string | null, expirationDate: string | null) {
  await setSettingsAsAdmin(server, {
    [CONFIG_KEYS.maintenanceActivated]: true,
    [`${CONFIG_KEYS.maintenanceTitle}.en`]: title,
    [`${CONFIG_KEYS.maintenanceContent}.en`]: 'The service is read-only from 18:00 to 20:00.',
    [CONFIG_KEYS.maintenanceStartDate]: startDate,
    [CONFIG_KEYS.maintenanceExpirationDate]: expirationDate,
  });
}

/** The login page with the configuration loaded; the public profile carries the notice. */
async function openLogin(page: Page, server: TestServer, title: string) {
  await page.goto(`${server.url}/auth/login`);
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  const { config: profile } = (await (await page.request.get(`${server.url}/api/2/config/profile`)).json()) as { config: Record<string, unknown> };
  expect(profile[CONFIG_KEYS.maintenanceActivated]).toBe(true);
  expect(profile[`${CONFIG_KEYS.maintenanceTitle}.en`]).toBe(title);
}

test('activated with start and expiry around now: the banner shows and can be dismissed', async ({ page }) => {
  const { server } = ctx;
  await configureMaintenance(server, 'Planned maintenance now', iso(-HOUR), iso(HOUR));
  await openLogin(page, server, 'Planned maintenance now');
  const banner = page.getByRole('region', { name: en.shell.maintenance.label });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Planned maintenance now');
  await expect(banner).toContainText('The service is read-only from 18:00 to 20:00.');
  await expect(page.getByTestId('maintenance-banner')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'login with the maintenance banner');

  await banner.getByRole('button', { name: en.shell.maintenance.dismiss }).click();
  await expect(page.getByTestId('maintenance-banner')).toHaveCount(0);
  // Stays dismissed while moving around in the app.
  await page.getByRole('link', { name: en.auth.login.forgotPassword }).click();
  await expect(page.getByRole('heading', { name: en.auth.requestReset.title })).toBeVisible();
  await expect(page.getByTestId('maintenance-banner')).toHaveCount(0);
});

test('with a start date in the future the banner is not shown', async ({ page }) => {
  const { server } = ctx;
  await configureMaintenance(server, 'Planned maintenance later', iso(HOUR), iso(2 * HOUR));
  await openLogin(page, server, 'Planned maintenance later');
  await expect(page.getByTestId('maintenance-banner')).toHaveCount(0);
  await expect(page.getByText('Planned maintenance later')).toHaveCount(0);
});

test('with an expiration date in the past the banner is not shown', async ({ page }) => {
  const { server } = ctx;
  await configureMaintenance(server, 'Planned maintenance earlier', iso(-2 * HOUR), iso(-HOUR));
  await openLogin(page, server, 'Planned maintenance earlier');
  await expect(page.getByTestId('maintenance-banner')).toHaveCount(0);
  await expect(page.getByText('Planned maintenance earlier')).toHaveCount(0);
});

test('activated without dates the banner shows on every page, also signed in', async ({ page }) => {
  const { server } = ctx;
  await configureMaintenance(server, 'Maintenance without dates', null, null);
  await openLogin(page, server, 'Maintenance without dates');
  await expect(page.getByTestId('maintenance-banner')).toContainText('Maintenance without dates');
  await submitLogin(page, { username: server.admin.email, password: server.admin.password });
  await expectInbox(page, server);
  await expect(page.getByTestId('maintenance-banner')).toContainText('Maintenance without dates');
});
