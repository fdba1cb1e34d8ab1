import { checkPasswordPolicy } from '@shared/contract/auth-escalation';
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
/** Form fields arrive as strings; anything missing is handled as an input error on the page. */
const WizardFormSchema = z.object({
  setupCode: z.string().max(100),
  organisation: z.string().trim().min(1).max(200),
  email: z.string().trim().max(254),
  password: z.string().max(1024),
  passwordRepeat: z.string().max(1024),
  mailTransport: z.enum(['mailbox', 'smtp']),
  smtpUrl: z.string().trim().max(2000).optional(),
  lang: z.string().max(35).optional(),
});
type WizardForm = z.infer<typeof WizardFormSchema>;

function pickLanguage(queryLang: string | undefined, acceptLanguage: string | undefined): Language {
  if (queryLang) return reduceLanguage(queryLang);
  return reduceLanguage(acceptLanguage?.split(',')[0]);
}

function renderWizard(lang: Language, minLength: number, values: Partial<WizardForm>, errors: string[]): string {
  const t = WIZARD_TEXTS[lang];
  const field = (name: keyof WizardForm, label: string, type: string, autocomplete: string) =>
    `<label for="${name}">${escapeHtml(label)}</label><input id="${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" ${
      type === 'password' ? '' : `value="${escapeHtml(String(values[name] ?? ''))}"`
    } ${name === 'smtpUrl' ? '' : 'required'}>`;
  const smtp = values.mailTransport === 'smtp';
  const body = `<h1>${escapeHtml(t.title!)}</h1>
<p>${escapeHtml(t.intro!)}</p>
${errors.length ? `<div class="error" role="alert"><ul>${errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('')}</ul></div>` : ''}
<form method="post" action="${WIZARD_PATH}">
<input type="hidden" name="lang" value="${lang}">
<label for="setupCode">${escapeHtml(t.setupCode!)}</label><input id="setupCode" name="setupCode" type="text" autocomplete="off" spellcheck="false" aria-describedby="setup-code-hint" required>
<p id="setup-code-hint">${escapeHtml(t.setupCodeHint!)}</p>
${field('organisation', t.organisation!, 'text', 'organization')}
<fieldset><legend>${escapeHtml(t.admin!)}</legend>
${field('email', t.email!, 'email', 'email')}
${field('password', t.password!, 'password', 'new-password')}
<p id="password-hint">${escapeHtml(t.passwordHint!.replace('{min}', String(minLength)))}</p>
${field('passwordRepeat', t.passwordRepeat!, 'password', 'new-password')}
</fieldset>
<fieldset><legend>${escapeHtml(t.mail!)}</legend>
<label><input type="radio" name="mailTransport" value="mailbox" ${smtp ? '' : 'checked'} class="inline"> ${escapeHtml(t.mailbox!)}</label>
<label><input type="radio" name="mailTransport" value="smtp" ${smtp ? 'checked' : ''} class="inline"> ${escapeHtml(t.smtp!)}</label>
${field('smtpUrl', t.smtpUrl!, 'text', 'off')}
</fieldset>
<button type="submit">${escapeHtml(t.submit!)}</button>
</form>`;
  return htmlPage({ lang, title: t.title!, body });
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
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(renderWizard(lang, policy.minLength, {}, []));
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
      const parsed = WizardFormSchema.safeParse(raw);
      const values = parsed.success ? parsed.data : (raw as Partial<WizardForm>);
      const errors: string[] = [];
      if (!parsed.success) errors.push(t.errRequired!);
      else if (!setupCodeMatches(parsed.data.setupCode, await app.settings.get(SETUP_CODE_HASH_KEY))) {
        // Checked before anything else: without the code the page tells nothing about the rest.
        return reply.code(403).type('text/html; charset=utf-8').send(renderWizard(lang, policy.minLength, parsed.data, [t.errSetupCode!]));
      } else {
        const form = parsed.data;
        if (!z.string().email().safeParse(form.email).success) errors.push(t.errEmail!);
        if (form.password !== form.passwordRepeat) errors.push(t.errMismatch!);
        else if (checkPasswordPolicy(form.password, policy).length > 0) errors.push(t.errPolicy!);
        if (form.mailTransport === 'smtp' && !/^smtps?:\/\/\S+$/.test(form.smtpUrl ?? '')) errors.push(t.errSmtp!);
      }
      if (errors.length > 0 || !parsed.success) {
        return reply.code(400).type('text/html; charset=utf-8').send(renderWizard(lang, policy.minLength, values, errors));
      }
      const form = parsed.data;
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
        return reply.code(409).type('text/html; charset=utf-8').send(renderWizard(lang, policy.minLength, values, [t.errEmail!]));
      }
      await app.settings.set({
        [SETTING_KEYS.organisationName]: form.organisation,
        [SETTING_KEYS.mailTransport]: form.mailTransport,
        [SETTING_KEYS.mailSmtpUrl]: form.mailTransport === 'smtp' ? (form.smtpUrl ?? null) : null,
        [CONFIG_KEYS.wizardFinished]: true,
        [SETUP_CODE_HASH_KEY]: null,
      });
      return reply.redirect('/auth/login', 303);
    },
  );
});
