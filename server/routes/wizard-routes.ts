import { checkPasswordPolicy, type PasswordPolicy } from '@shared/contract/auth-escalation';
import { CONFIG_KEYS } from '@shared/contract/config';
import { reduceLanguage, type Language } from '@shared/contract/constants';
import { SETTING_KEYS } from '@shared/contract/settings';
import { z } from 'zod';
import { escapeHtml, htmlPage } from '../pages/html';
import { WIZARD_TEXTS } from '../pages/wizard-texts';
import { loadPasswordPolicy } from '../security/password-policy';
import { hashPassword } from '../users/passwords';
import { ADMIN_ROLES, UserExistsError } from '../users/users-repository';
import { routePlugin } from '../core/route-plugin';
import { SETUP_CODE_HASH_KEY, setupCodeMatches, WIZARD_PATH } from '../setup/setup-code';


const WizardQuerySchema = z.object({ lang: z.string().max(35).optional() });
/** Form fields arrive as strings; each is checked on its own so the page lists every problem at once. */
const WizardFormSchema = z.object({
  setupCode: z.string().max(100),
  organisation: z.string().trim().max(200),
  email: z.string().trim().max(254),
  password: z.string().max(1024),
  passwordRepeat: z.string().max(1024),
  mailTransport: z.enum(['mailbox', 'smtp']).catch('mailbox'),
  smtpUrl: z.string().trim().max(2000).optional(),
  lang: z.string().max(35).optional(),
});
type WizardForm = z.infer<typeof WizardFormSchema>;
type WizardField = Exclude<keyof WizardForm, 'lang' | 'mailTransport'>;
/** A problem per field (the text shown beside it and in the list on top). */
type WizardErrors = Partial<Record<WizardField, string>>;

function pickLanguage(queryLang: string | undefined, acceptLanguage: string | undefined): Language {
  if (queryLang) return reduceLanguage(queryLang);
  return reduceLanguage(acceptLanguage?.split(',')[0]);
}

/** Strings of the posted form; anything else (or too long) reads as empty, so it is "required". */
function formFields(raw: Record<string, unknown>): WizardForm {
  const text = (name: string, max: number) => (typeof raw[name] === 'string' && raw[name].length <= max ? raw[name] : '');
  return WizardFormSchema.parse({
    setupCode: text('setupCode', 100),
    organisation: text('organisation', 200),
    email: text('email', 254),
    password: text('password', 1024),
    passwordRepeat: text('passwordRepeat', 1024),
    mailTransport: raw.mailTransport,
    smtpUrl: text('smtpUrl', 2000),
  });
}

/**
 * Every problem of the form at once (issue 33 §2). The setup code's own check comes from the
 * caller (`codeRight`): the other checks are about the typed values only and tell nothing about
 * the server.
 */
function wizardErrors(t: Record<string, string>, form: WizardForm, codeRight: boolean, policy: PasswordPolicy): WizardErrors {
  const errors: WizardErrors = {};
  const required: WizardField[] = ['setupCode', 'organisation', 'email', 'password', 'passwordRepeat'];
  for (const name of required) if ((form[name] ?? '').trim() === '') errors[name] = t.errFieldRequired!;
  if (!errors.setupCode && !codeRight) errors.setupCode = t.errSetupCode!;
  if (!errors.email && !z.string().email().safeParse(form.email).success) errors.email = t.errEmail!;
  if (!errors.password && checkPasswordPolicy(form.password, policy).length > 0) errors.password = t.errPolicy!;
  if (!errors.password && !errors.passwordRepeat && form.password !== form.passwordRepeat) errors.passwordRepeat = t.errMismatch!;
  if (form.mailTransport === 'smtp' && !/^smtps?:\/\/\S+$/.test(form.smtpUrl ?? '')) errors.smtpUrl = t.errSmtp!;
  return errors;
}

/**
 * What the page shows again after errors: everything typed, except a wrong setup code and the
 * passwords when one of them is the problem (then both are typed anew).
 */
function keptValues(form: WizardForm, errors: WizardErrors): Partial<WizardForm> {
  const passwordsWrong = Boolean(errors.password || errors.passwordRepeat);
  return {
    ...form,
    setupCode: errors.setupCode ? '' : form.setupCode,
    password: passwordsWrong ? '' : form.password,
    passwordRepeat: passwordsWrong ? '' : form.passwordRepeat,
  };
}

function renderWizard(lang: Language, minLength: number, values: Partial<WizardForm>, errors: WizardErrors): string {
  const t = WIZARD_TEXTS[lang];
  const labels: Record<WizardField, string> = { setupCode: t.setupCode!, organisation: t.organisation!, email: t.email!, password: t.password!, passwordRepeat: t.passwordRepeat!, smtpUrl: t.smtpUrl! };
  const hints: Partial<Record<WizardField, string>> = { setupCode: 'setup-code-hint', password: 'password-hint' };
  const field = (name: WizardField, type: string, autocomplete: string, extra = '') => {
    const error = errors[name];
    const describedBy = [hints[name], error ? `${name}-error` : undefined].filter(Boolean).join(' ');
    return `<label for="${name}">${escapeHtml(labels[name])}</label><input id="${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" value="${escapeHtml(String(values[name] ?? ''))}"${
      name === 'smtpUrl' ? '' : ' required'
    }${describedBy ? ` aria-describedby="${describedBy}"` : ''}${error ? ' aria-invalid="true"' : ''}${extra}>${error ? `<p id="${name}-error" class="field-error">${escapeHtml(error)}</p>` : ''}`;
  };
  const listed = (Object.keys(labels) as WizardField[]).filter((name) => errors[name]);
  const smtp = values.mailTransport === 'smtp';
  const body = `<h1>${escapeHtml(t.title!)}</h1>
<p>${escapeHtml(t.intro!)}</p>
${listed.length ? `<div class="error" role="alert"><p>${escapeHtml(t.errorsTitle!)}</p><ul>${listed.map((name) => `<li><a href="#${name}">${escapeHtml(labels[name])}</a>: ${escapeHtml(errors[name]!)}</li>`).join('')}</ul></div>` : ''}
<form method="post" action="${WIZARD_PATH}" novalidate>
<input type="hidden" name="lang" value="${lang}">
${field('setupCode', 'text', 'off', ' spellcheck="false"')}
<p id="setup-code-hint">${escapeHtml(t.setupCodeHint!)}</p>
${field('organisation', 'text', 'organization')}
<fieldset><legend>${escapeHtml(t.admin!)}</legend>
${field('email', 'email', 'email')}
${field('password', 'password', 'new-password')}
<p id="password-hint">${escapeHtml(t.passwordHint!.replace('{min}', String(minLength)))}</p>
${field('passwordRepeat', 'password', 'new-password')}
</fieldset>
<fieldset><legend>${escapeHtml(t.mail!)}</legend>
<label><input type="radio" name="mailTransport" value="mailbox" ${smtp ? '' : 'checked'} class="inline"> ${escapeHtml(t.mailbox!)}</label>
<label><input type="radio" name="mailTransport" value="smtp" ${smtp ? 'checked' : ''} class="inline"> ${escapeHtml(t.smtp!)}</label>
${field('smtpUrl', 'text', 'off')}
</fieldset>
<button type="submit">${escapeHtml(t.submit!)}</button>
</form>`;
  return htmlPage({ lang, title: t.title!, body });
}

/** The success step: what to do next, and the way to sign in. */
function renderDone(lang: Language, form: WizardForm): string {
  const t = WIZARD_TEXTS[lang];
  const body = `<h1>${escapeHtml(t.doneTitle!)}</h1>
<p>${escapeHtml(t.doneIntro!.replace('{email}', form.email))}</p>
<ol>
<li>${escapeHtml(form.mailTransport === 'smtp' ? t.doneSmtp! : t.doneMailbox!)}</li>
<li>${escapeHtml(t.doneUsers!)}</li>
</ol>
<p><a class="button" href="/auth/login">${escapeHtml(t.doneSignIn!)}</a></p>`;
  return htmlPage({ lang, title: t.doneTitle!, body });
}

/**
 * The installation wizard (DESIGN §9): organisation, first administrator, mail. Only
 * while `ftapi.wizard.finished` is false; afterwards it sends people to the login page.
 */
export const wizardRoutes = routePlugin('kuvert-wizard-routes', async (app) => {
  const finished = async () => (await app.settings.get<boolean>(CONFIG_KEYS.wizardFinished)) === true;

  app.get(
    WIZARD_PATH,
    { config: { access: 'public' }, schema: { hide: true, querystring: WizardQuerySchema } },
    async (request, reply) => {
      if (await finished()) return reply.redirect('/auth/login', 303);
      const lang = pickLanguage(request.query.lang, request.headers['accept-language']);
      const policy = await loadPasswordPolicy(app.settings);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(renderWizard(lang, policy.minLength, {}, {}));
    },
  );

  app.post(
    WIZARD_PATH,
    // Public by nature: nobody can sign in before it ran. Once finished it does nothing.
    { config: { access: 'public' }, schema: { hide: true } },
    async (request, reply) => {
      if (await finished()) return reply.redirect('/auth/login', 303);
      const raw = (request.body ?? {}) as Record<string, unknown>;
      const lang = pickLanguage(typeof raw.lang === 'string' ? raw.lang : undefined, request.headers['accept-language']);
      const t = WIZARD_TEXTS[lang];
      const policy = await loadPasswordPolicy(app.settings);
      const form = formFields(raw);
      const codeRight = form.setupCode.trim() !== '' && setupCodeMatches(form.setupCode, await app.settings.get(SETUP_CODE_HASH_KEY));
      const errors = wizardErrors(t, form, codeRight, policy);
      // The typed passwords may come back in the page: never kept by a cache.
      const page = (status: number, shown: WizardErrors) =>
        reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(renderWizard(lang, policy.minLength, keptValues(form, shown), shown));
      // A wrong code is 403 (nothing was created, the code decides); other problems 400.
      if (Object.keys(errors).length > 0) return page(errors.setupCode && form.setupCode.trim() !== '' ? 403 : 400, errors);
      try {
        await app.users.create({
          username: form.email,
          email: form.email,
          passwordHash: await hashPassword(form.password),
          roles: ADMIN_ROLES,
          language: lang,
          emailVerified: true,
        });
      } catch (err) {
        if (!(err instanceof UserExistsError)) throw err;
        return page(409, { email: t.errEmail! });
      }
      await app.settings.set({
        [SETTING_KEYS.organisationName]: form.organisation,
        [SETTING_KEYS.mailTransport]: form.mailTransport,
        [SETTING_KEYS.mailSmtpUrl]: form.mailTransport === 'smtp' ? (form.smtpUrl ?? null) : null,
        [CONFIG_KEYS.wizardFinished]: true,
        [SETUP_CODE_HASH_KEY]: null,
      });
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(renderDone(lang, form));
    },
  );
});
