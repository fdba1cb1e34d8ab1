import type { ProductHelpSettings } from '@web/lib/analytics/settings';

/**
 * The product-help widget's contract (SPEC §1; decided here, SPEC leaves the vendor open): the
 * script at `ftapi.productHelp.config.endpoint` defines `window.ProductHelp` with `init(options)`
 * and `open()`. Kuvert loads it only when configured, initialises it with the workspace code,
 * the language and the user (hashed id + access tags, SPEC §6) and opens it on Help.
 */
export interface ProductHelpInit {
  workspaceCode: string;
  language: string;
  user: { id: string; tags: string[] };
}

export interface ProductHelpWidget {
  init(options: ProductHelpInit): unknown;
  open(): unknown;
}

declare global {
  interface Window {
    ProductHelp?: ProductHelpWidget;
  }
}

const loading = new Map<string, Promise<ProductHelpWidget>>();

function loadScript(endpoint: string): Promise<ProductHelpWidget> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = endpoint;
    script.async = true;
    script.dataset.kuvert = 'product-help';
    script.addEventListener('load', () => {
      const widget = window.ProductHelp;
      if (widget && typeof widget.init === 'function' && typeof widget.open === 'function') resolve(widget);
      else reject(new Error('the product-help script does not define window.ProductHelp'));
    });
    script.addEventListener('error', () => reject(new Error(`the product-help script could not be loaded from ${endpoint}`)));
    document.head.append(script);
  });
}

/** Loads the widget's script once per page life (a failed load may be tried again). */
export function loadProductHelp(settings: ProductHelpSettings): Promise<ProductHelpWidget> {
  let promise = loading.get(settings.endpoint);
  if (!promise) {
    promise = loadScript(settings.endpoint);
    promise.catch(() => loading.delete(settings.endpoint));
    loading.set(settings.endpoint, promise);
  }
  return promise;
}

/** Initialises (again when language or user changed) and opens the widget. */
export async function openProductHelp(settings: ProductHelpSettings, init: Omit<ProductHelpInit, 'workspaceCode'>): Promise<void> {
  const widget = await loadProductHelp(settings);
  await widget.init({ workspaceCode: settings.workspaceCode, ...init });
  await widget.open();
}
