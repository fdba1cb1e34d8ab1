// A form's submissions in the web client against the real server (issue 33 §1): a forms
// administrator opens the Submissions tab of a level-1 form, reads the values in the list,
// downloads the CSV and compares it column by column with the list, and downloads the Excel file
// built in the browser. axe on the tab.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import type { Form } from '@shared/contract/forms';
import { proveAddress } from '@tests/support/prove-address';
import { unzipSync, strFromU8 } from 'fflate';
import { startTestServer, type TestServer } from '../support/server';
import { apiCall, apiSignIn, expectNoSeriousA11yViolations, signInToInbox } from './fixtures';

const PASSWORD = 'Good-Passw0rd-e2e';
const builder = { email: 'fiona.forms@example.test', password: PASSWORD };
const TRICKY = 'Doe, "Jo"\nJunior';
let server: TestServer;
let form: Form;

test.beforeAll(async () => {
  server = await startTestServer();
  const admin = await apiSignIn(server, server.admin);
  const response = await apiCall(server, admin, 'POST', '/admin/users', {
    ...builder,
    firstName: 'Fiona',
    lastName: 'Forms',
    language: 'en',
    licensed: true,
    roleNames: ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'],
  });
  expect(response.status, await response.clone().text()).toBe(201);
  await proveAddress(server, builder.email, builder.password);
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
