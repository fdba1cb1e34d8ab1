/** Small helpers for the few server-rendered pages (legacy /webui pages, wizard). */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The pages' stylesheet, served at PAGE_STYLESHEET_PATH: a file, not a <style> element, so
 * the pages carry no inline markup under the Content-Security-Policy (core/security-headers.ts).
 */
export const PAGE_STYLESHEET_PATH = '/webui/page.css';
export const PAGE_STYLESHEET = `body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#242424}
h1{color:#0B7530}label{display:block;margin-top:1rem;font-weight:600}
input,select{width:100%;padding:.5rem;margin-top:.25rem;box-sizing:border-box;font:inherit}
button{margin-top:1.5rem;background:#19853F;color:#fff;border:0;padding:.6rem 1.2rem;font:inherit;border-radius:4px;cursor:pointer}
.error{background:#FDE7E9;border-left:4px solid #C50F1F;padding:.5rem 1rem}
fieldset{border:1px solid #d1d1d1;margin-top:1.5rem;padding:0 1rem 1rem}
.inline{width:auto}
.field-error{color:#C50F1F;margin:.25rem 0 0}
a.button{display:inline-block;background:#19853F;color:#fff;padding:.6rem 1.2rem;border-radius:4px;text-decoration:none}
`;

export function htmlPage(options: { lang: string; title: string; body: string }): string {
  return `<!doctype html>
<html lang="${escapeHtml(options.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" href="/webui/favicon.ico">
<link rel="stylesheet" href="${PAGE_STYLESHEET_PATH}">
</head>
<body>
<main>
${options.body}
</main>
</body>
</html>`;
}

/** The Kuvert mark: an envelope in the theme colour. */
export const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="Kuvert"><rect width="64" height="64" rx="12" fill="#19853F"/><path d="M12 20h40v26H12z" fill="none" stroke="#fff" stroke-width="4" stroke-linejoin="round"/><path d="M12 20l20 15 20-15" fill="none" stroke="#fff" stroke-width="4" stroke-linejoin="round"/></svg>`;
