// First: the browser runs under a CSP without eval (see the module).
import '@shared/contract/zod-jitless';
import { handOverWebSession } from '@addin/auth/web-sign-in-dialog';

// The Office dialog of the web sign-in (captcha, SSO, registration steps).
void handOverWebSession();
