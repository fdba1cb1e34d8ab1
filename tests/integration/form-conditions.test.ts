import { SECURITY_LEVELS } from '@shared/contract/constants';
import type { FormResponseSummary } from '@shared/contract/form-response-summary';
import type { FormSubmissionList } from '@shared/contract/form-submissions';
import { FORM_ERRORS, type Form, type FormInput } from '@shared/contract/forms';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { createFormAs, formApi, getJson, postSubmission, submitValues } from './form-helpers';

// Conditional questions, number and rating fields and the response summary (issue 33 §3) against
// the real server (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL): the conditions enforced
// by the server, the values it keeps, the summary's figures and who may read them.

let server: TestServer;
let owner: Session; // ROLE_SECUFORMS, creates the forms
let editor: Session; // ROLE_SECUFORMS, an editor of the forms
let colleague: Session; // ROLE_SECUFORMS, not an editor
let plain: Session; // no forms role
let admin: Session;
const ROLES = ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER', 'ROLE_SECUFORMS'] as const;
let counter = 0;

function survey(overrides: Partial<FormInput> = {}): FormInput {
  const n = ++counter;
  return {
    name: `Survey ${n}`,
    url: `survey-${n}`,
    active: true,
    securityLevel: SECURITY_LEVELS.LEVEL_1,
    mandatoryRecipients: ['recipient@example.test'],
    customFields: [
      { name: 'Topic', type: 'radio', options: ['Claim', 'Question'], required: true },
      { name: 'Claim number', type: 'text', textAreaSize: 1, required: true, condition: { field: 'Topic', operator: 'equals', values: ['Claim'] } },
      { name: 'Extras', type: 'checkbox', options: ['Car', 'House, garden'] },
      { name: 'Amount', type: 'number', min: 0, max: 1000, step: 0.5, condition: { field: 'Topic', operator: 'oneOf', values: ['Claim'] } },
      { name: 'Stars', type: 'rating', ratingMax: 5 },
      { name: 'Persons', type: 'number', integer: true },
    ],
    admin: { editors: ['editor@example.test'] },
    ...overrides,
  };
}

const submissions = (form: Form) => getJson<FormSubmissionList>(server, owner, `/forms/${form.formUuid}/submissions`);
const problemsOf = async (response: Response) => ((await expectBackendError(response, 400, FORM_ERRORS.fieldInvalid)).metadata as { problems: unknown[] }).problems;

beforeAll(async () => {
  server = await startTestServer({ config: { licenceActiveForms: 50 } });
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'owner@example.test', roleNames: [...ROLES], licensed: true });
  await createUserAsAdmin(server, admin, { email: 'editor@example.test', roleNames: [...ROLES], licensed: true });
  await createUserAsAdmin(server, admin, { email: 'colleague@example.test', roleNames: [...ROLES], licensed: true });
  await createUserAsAdmin(server, admin, { email: 'plain@example.test' });
  await createUserAsAdmin(server, admin, { email: 'recipient@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_RECEIVER'] });
  owner = await signIn(server, 'owner@example.test', 'Good-Passw0rd');
  editor = await signIn(server, 'editor@example.test', 'Good-Passw0rd');
  colleague = await signIn(server, 'colleague@example.test', 'Good-Passw0rd');
  plain = await signIn(server, 'plain@example.test', 'Good-Passw0rd');
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('conditional questions, number and rating fields, response summary', () => {
  it('runs on the database the environment asks for', () => {
    expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it('a form without the new settings loads with their defaults; bad settings are refused at save', async () => {
    const form = await createFormAs(server, owner, survey({ customFields: [{ name: 'Name', type: 'text', textAreaSize: 1 }] }));
    expect(form.customFields[0]).toMatchObject({ condition: null, min: null, max: null, step: null, integer: false, ratingMax: 5 });
    const bad = survey({
      customFields: [
        { name: 'Later', type: 'text', textAreaSize: 1, condition: { field: 'Count', operator: 'filled' } },
        { name: 'Count', type: 'number', min: 10, max: 1, step: 0 },
        { name: 'Pick', type: 'dropdown', options: ['a'], condition: { field: 'Count', operator: 'equals', values: [] } },
      ],
    });
    const refused = await expectBackendError(await call(server, owner, 'POST', formApi('/forms'), bad), 400, 'ValidationException');
    expect((refused.metadata as { problems: unknown[] }).problems).toEqual(
      expect.arrayContaining([
        { field: 'customFields.0.condition', reason: 'invalidCondition' },
        { field: 'customFields.1.max', reason: 'invalidRange' },
        { field: 'customFields.1.step', reason: 'invalidStep' },
        { field: 'customFields.2.condition', reason: 'invalidCondition' },
      ]),
    );
    const stars = await expectBackendError(await call(server, owner, 'POST', formApi('/forms'), survey({ customFields: [{ name: 'S', type: 'rating', ratingMax: 7 as 5 }] })), 400);
    expect(stars.error).toBe('ValidationException');
  });

  it('the server enforces the conditions: a hidden required field is not required, a value for it is dropped', async () => {
    const form = await createFormAs(server, owner, survey());
    // Shown (Topic = Claim): the claim number is required.
    expect(await problemsOf(await postSubmission(server, form.url, { Topic: 'Claim' }))).toEqual([{ field: 'Claim number', reason: 'required' }]);
    // Hidden (Topic = Question): not required, and the values sent for hidden fields are not kept.
    await submitValues(server, form.url, { Topic: 'Question', 'Claim number': 'C-77', Amount: '12' });
    const kept = (await submissions(form)).submissions[0]!.values;
    expect(kept).toEqual({ Topic: 'Question', 'Claim number': '', Extras: '', Amount: '', Stars: '', Persons: '' });
    // A hidden field's value is dropped before it is checked: a bad one is no problem either.
    await submitValues(server, form.url, { Topic: 'Question', Amount: 'not a number' });
  });

  it('number and rating values: checked by the shared rules, kept as text', async () => {
    const form = await createFormAs(server, owner, survey());
    const reasons = async (values: Record<string, unknown>) => (await problemsOf(await postSubmission(server, form.url, { Topic: 'Claim', 'Claim number': 'C-1', ...values }))).map((p) => p);
    expect(await reasons({ Amount: 'ten' })).toEqual([{ field: 'Amount', reason: 'invalidNumber' }]);
    expect(await reasons({ Amount: '1000.5' })).toEqual([{ field: 'Amount', reason: 'numberOutOfRange' }]);
    expect(await reasons({ Amount: '0.25' })).toEqual([{ field: 'Amount', reason: 'numberStep' }]);
    expect(await reasons({ Persons: '2.5' })).toEqual([{ field: 'Persons', reason: 'notInteger' }]);
    expect(await reasons({ Stars: '6' })).toEqual([{ field: 'Stars', reason: 'invalidRating' }]);
    expect(await reasons({ Stars: ['5'] })).toEqual([{ field: 'Stars', reason: 'invalidValue' }]);
    await submitValues(server, form.url, { Topic: 'Claim', 'Claim number': 'C-2', Amount: '12.5', Stars: '4', Persons: '-3' });
    expect((await submissions(form)).submissions[0]!.values).toMatchObject({ Amount: '12.5', Stars: '4', Persons: '-3' });
  });

  it('the summary: counts per option, the rating distribution and average, number figures', async () => {
    const form = await createFormAs(server, owner, survey());
    await submitValues(server, form.url, { Topic: 'Claim', 'Claim number': 'A', Extras: ['Car', 'House, garden'], Amount: '10', Stars: '5', Persons: '2' });
    await submitValues(server, form.url, { Topic: 'Claim', 'Claim number': 'B', Extras: ['House, garden'], Amount: '20.5', Stars: '4' });
    await submitValues(server, form.url, { Topic: 'Question', Amount: '999', Stars: '4', Persons: '4' });
    const summary = await getJson<FormResponseSummary>(server, editor, `/forms/${form.formUuid}/summary`);
    expect(summary.total).toBe(3);
    const byName = Object.fromEntries(summary.fields.map((f) => [f.name, f]));
    expect(Object.keys(byName)).toEqual(['Topic', 'Extras', 'Amount', 'Stars', 'Persons']);
    expect(byName.Topic).toMatchObject({ answered: 3, counts: [{ value: 'Claim', count: 2 }, { value: 'Question', count: 1 }] });
    expect(byName.Extras).toMatchObject({ answered: 2, counts: [{ value: 'Car', count: 1 }, { value: 'House, garden', count: 2 }] });
    // The hidden Amount (999) was dropped: only the two claims count.
    expect(byName.Amount).toMatchObject({ answered: 2, counts: [], min: 10, max: 20.5, average: 15.25 });
    expect(byName.Stars).toMatchObject({ answered: 3, average: 4.33, min: 4, max: 5 });
    expect(byName.Stars!.counts.map((c) => c.count)).toEqual([0, 0, 0, 2, 1]);
    expect(byName.Persons).toMatchObject({ answered: 2, average: 3, min: 2, max: 4 });
  });

  it("the summary: the form's creator, editors and administrators; others are refused", async () => {
    const form = await createFormAs(server, owner, survey());
    const path = formApi(`/forms/${form.formUuid}/summary`);
    for (const session of [owner, editor, admin]) expect((await call(server, session, 'GET', path)).status).toBe(200);
    await expectBackendError(await call(server, colleague, 'GET', path), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, plain, 'GET', path), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, null, 'GET', path), 401);
    await expectBackendError(await call(server, owner, 'GET', formApi('/forms/no-such-form/summary')), 404);
    expect(await getJson<FormResponseSummary>(server, owner, `/forms/${form.formUuid}/summary`)).toMatchObject({ total: 0 });
  });
});
