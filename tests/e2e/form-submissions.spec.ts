// A form's submissions in the web client against the real server (issue 33 §1): a forms
// administrator opens the Submissions tab of a level-1 form, reads the values in the list,
// downloads the CSV and compares it column by column with the list, and downloads the Excel file
// built in the browser. axe on the tab. A level-3 form (issue 33 §1): the owner unlocks her keys,
// the browser decrypts each submission, shows values and summary, and builds the CSV itself; a
// submission sent to another recipient only is named as not decryptable and left out.
import { readFile } from 'node:fs/promises';
import { expect } from '@playwright/test';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import type { Form } from '@shared/contract/forms';
import { proveAddress } from '@tests/support/prove-address';
import { unzipSync, strFromU8 } from 'fflate';
import { startTestServer, type TestServer } from '../support/server';
import { createApiClient } from '@shared/api/client';
import { getPublicForm } from '@shared/api/endpoints/forms';
import { createCryptoService } from '@shared/crypto/service';
import { submitFormDelivery } from '@shared/transfer/form-submit';
import { apiCall, apiSignIn, en, expectNoSeriousA11yViolations, secuPassFromNode, signInToInbox, test } from './fixtures';

const PASSWORD = 'Good-Passw0rd-e2e';
const builder = { email: 'fiona.forms@example.test', password: PASSWORD };
const TRICKY = 'Doe, "Jo"\nJunior';
const other = { email: 'rita.forms@example.test', password: PASSWORD };
const PASSPHRASE = 'Fiona-Forms-SecuPass-Maple-42';
let server: TestServer;
let form: Form;

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  for (const [user, roleNames] of [
    [builder, ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS']],
    [other, ['ROLE_UI_USER', 'ROLE_RECEIVER']],
  ] as const) {
    const response = await apiCall(server, admin, 'POST', '/admin/users', { ...user, firstName: 'Fiona', lastName: 'Forms', language: 'en', licensed: true, roleNames });
    expect(response.status, await response.clone().text()).toBe(201);
    await proveAddress(server, user.email, user.password);
  }
  const session = await apiSignIn(server, builder);
  const created = await apiCall(server, session, 'POST', '/forms', {
    name: 'Claims',
    url: 'claims',
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: [builder.email],
    customFields: [
      { name: 'Full name', type: 'text', required: true, textAreaSize: 3 },
      { name: 'Consent', type: 'checkbox', options: ['Terms', 'Newsletter'] },
    ],
  });
  expect(created.status, await created.clone().text()).toBe(201);
  form = (await created.json()) as Form;
  for (const values of [{ 'Full name': 'Anna Alpha', Consent: ['Terms'] }, { 'Full name': TRICKY, Consent: ['Terms', 'Newsletter'] }]) {
    const submitted = await fetch(`${server.url}/api/2/public-forms/${form.formUuid}/submissions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ values }) });
    expect(submitted.status, await submitted.clone().text()).toBe(201);
  }
});
test.afterAll(async () => {
  await server?.close();
});

/** RFC 4180 with the given separator (quoted fields may hold it, quotes and line breaks). */
function parseCsv(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) endField();
    else if (c === '\r' && text[i + 1] === '\n') {
      endField();
      rows.push(row);
      row = [];
      i++;
    } else field += c;
  }
  return rows;
}

test('the Submissions tab lists the values; the CSV matches it column by column; the Excel file holds them', async ({ page }) => {
  await signInToInbox(page, server, builder);
  await page.goto(`${server.url}/forms/${form.formUuid}`);
  await page.getByRole('tab', { name: 'Submissions' }).click();
  const table = page.getByRole('table', { name: 'Submissions' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expectNoSeriousA11yViolations(page, 'form submissions tab');
  const headers = await table.getByRole('columnheader').allInnerTexts();
  expect(headers).toEqual(['When', 'Submitter', 'Security level', 'State', 'Full name', 'Consent']);
  const listed = await Promise.all((await table.getByRole('row').all()).slice(1).map(async (r) => r.getByRole('cell').allTextContents()));

  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
  expect(csvDownload.suggestedFilename()).toMatch(/^claims-submissions-\d{4}-\d\d-\d\d\.csv$/);
  const bytes = await readFile(await csvDownload.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = parseCsv(bytes.subarray(3).toString('utf8'), ',');
  expect(rows[0]).toEqual(['Time (UTC)', 'Submitter', 'Security level', 'State', 'Full name', 'Consent']);
  expect(rows).toHaveLength(3);
  // Column by column against the list (newest first in both): submitter, level (number vs name), state, values.
  for (const [index, csvRow] of rows.slice(1).entries()) {
    const shown = listed[index]!;
    expect(csvRow[1]).toBe(shown[1]);
    expect(shown[2]).toContain(`Level ${csvRow[2]}`);
    expect(shown[3]).toContain(csvRow[3]);
    expect(csvRow.slice(4)).toEqual(shown.slice(4));
  }
  expect(rows[1]!.slice(4)).toEqual([TRICKY, 'Terms, Newsletter']);
  expect(rows[2]!.slice(4)).toEqual(['Anna Alpha', 'Terms']);

  const [excel] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Excel' }).click()]);
  expect(excel.suggestedFilename()).toMatch(/^claims-submissions-\d{4}-\d\d-\d\d\.xlsx$/);
  // The Excel file, read cell by cell, holds exactly the CSV's rows (the same code builds both).
  expect(excelRows(unzipSync(new Uint8Array(await readFile(await excel.path()))))).toEqual(rows);
});

/** The first sheet's rows of an .xlsx as text (shared strings resolved). */
function excelRows(files: Record<string, Uint8Array>): string[][] {
  const unescape = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
  const shared = [...strFromU8(files['xl/sharedStrings.xml']!).matchAll(/<si><t[^>]*>([\s\S]*?)<\/t><\/si>/g)].map((m) => unescape(m[1]!));
  const sheet = strFromU8(files['xl/worksheets/sheet1.xml']!);
  return [...sheet.matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)].map((row) =>
    [...row[1]!.matchAll(/<c ([^>]*)>(?:<v>([\s\S]*?)<\/v>|<is><t[^>]*>([\s\S]*?)<\/t><\/is>)<\/c>/g)].map((c) =>
      /\bt="s"/.test(c[1]!) ? shared[Number(c[2])]! : unescape(c[2] ?? c[3] ?? ''),
    ),
  );
}

test('level 3: the owner unlocks, the browser decrypts each submission, shows values and summary, and builds the CSV', async ({ page }) => {
  test.setTimeout(180_000);
  await secuPassFromNode(server, builder, PASSPHRASE);
  await secuPassFromNode(server, other, 'Rita-Forms-SecuPass-Birch-17');
  const session = await apiSignIn(server, builder);
  const created = await apiCall(server, session, 'POST', '/forms', {
    name: 'Sealed claims',
    url: 'sealed-claims',
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_3,
    optionalRecipients: [builder.email, other.email],
    customFields: [
      { name: 'Full name', type: 'text', required: true, textAreaSize: 1 },
      { name: 'Colours', type: 'checkbox', options: ['Red, green', 'Blue'] },
      { name: 'Stars', type: 'rating', ratingMax: 5 },
    ],
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const sealed = (await created.json()) as Form;
  // Three submissions from "browsers" in Node (the product's submit flow with their own crypto):
  // two to the owner, the last to the other recipient only.
  const publicForm = await getPublicForm(createApiClient({ backendUrl: server.url }), sealed.formUuid);
  const submissions: Array<[Record<string, string | string[]>, string]> = [
    [{ 'Full name': 'Anna Alpha', Colours: ['Red, green'], Stars: '4' }, builder.email],
    [{ 'Full name': TRICKY, Colours: ['Red, green', 'Blue'], Stars: '2' }, builder.email],
    [{ 'Full name': 'Only Rita', Colours: ['Blue'], Stars: '5' }, other.email],
  ];
  for (const [values, chosen] of submissions) {
    const outcome = await submitFormDelivery({
      client: createApiClient({ backendUrl: server.url }),
      backendUrl: server.url,
      formId: sealed.formUuid,
      form: publicForm,
      body: { values, chosenRecipients: [chosen], language: 'en' },
      files: [],
      crypto: createCryptoService(),
    });
    expect(outcome.result.ok, JSON.stringify(!outcome.result.ok && outcome.result.error)).toBe(true);
  }

  await signInToInbox(page, server, builder);
  await page.goto(`${server.url}/forms/${sealed.formUuid}`);
  await page.getByRole('tab', { name: 'Submissions' }).click();
  const table = page.getByRole('table', { name: 'Submissions' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('cell', { name: 'Not decrypted yet' })).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Download CSV', exact: true })).toBeDisabled();
  await page.getByRole('button', { name: 'Decrypt submissions', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: en.secupass.unlock.title.decrypt });
  await dialog.getByLabel(/^Passphrase/).fill(PASSPHRASE);
  await dialog.getByRole('button', { name: en.secupass.unlock.submit.decrypt }).click();
  await expect(page.getByText('1 submission could not be decrypted by you; it is left out of the summary and the exports.')).toBeVisible({ timeout: 60_000 });
  await expect(table.getByRole('cell', { name: 'You are not a recipient of this submission: it cannot be decrypted by you' })).toHaveCount(1);
  await expect(table.getByRole('cell', { name: 'Decrypted', exact: true })).toHaveCount(2);
  const headers = await table.getByRole('columnheader').allInnerTexts();
  expect(headers).toEqual(['When', 'Submitter', 'Security level', 'State', 'Entries', 'Full name', 'Colours', 'Stars']);
  // The summary counts the two decrypted submissions; "Red, green" is one option (issue 33 §4).
  await expect(page.getByRole('heading', { name: 'Summary of 2 submissions' })).toBeVisible();
  const colours = page.getByRole('region', { name: 'Colours' });
  await expect(colours.getByRole('row', { name: 'Red, green 2' })).toBeVisible();
  await expect(colours.getByRole('row', { name: 'Blue 1' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Stars' }).getByText('Smallest 2, average 3, largest 4')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'form submissions tab (level 3, decrypted)');

  const listed = await Promise.all((await table.getByRole('row').all()).slice(1).map(async (r) => r.getByRole('cell').allTextContents()));
  const readable = listed.filter((cells) => cells[4] === 'Decrypted');
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV', exact: true }).click()]);
  expect(csvDownload.suggestedFilename()).toMatch(/^sealed-claims-submissions-\d{4}-\d\d-\d\d\.csv$/);
  const bytes = await readFile(await csvDownload.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = parseCsv(bytes.subarray(3).toString('utf8'), ',');
  // The server's level-1/2 columns: no "Entries" column, the undecryptable submission left out.
  expect(rows[0]).toEqual(['Time (UTC)', 'Submitter', 'Security level', 'State', 'Full name', 'Colours', 'Stars']);
  expect(rows).toHaveLength(3);
  for (const [index, csvRow] of rows.slice(1).entries()) {
    const shown = readable[index]!;
    expect(csvRow[1]).toBe(shown[1]);
    expect(shown[2]).toContain(`Level ${csvRow[2]}`);
    expect(csvRow[2]).toBe('3');
    expect(shown[3]).toContain(csvRow[3]);
    expect(csvRow.slice(4)).toEqual(shown.slice(5));
  }
  expect(rows.slice(1).map((r) => r.slice(4))).toEqual([
    [TRICKY, 'Red, green, Blue', '2'],
    ['Anna Alpha', 'Red, green', '4'],
  ]);
});
