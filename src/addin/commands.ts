// First: the browser runs under a CSP without eval (see the module).
import '@shared/contract/zod-jitless';
import { onOfficeReady } from '@addin/office/office-host';

// The manifest's FunctionFile: every command opens the task pane, so there is nothing to
// register; Outlook still needs the page to load and Office to initialise.
void onOfficeReady();
