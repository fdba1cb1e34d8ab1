import { handOverWebSession } from '@addin/auth/web-sign-in-dialog';

// The Office dialog of the web sign-in (captcha, SSO, registration steps).
void handOverWebSession();
