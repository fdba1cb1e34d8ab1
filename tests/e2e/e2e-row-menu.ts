// The E2E room table's row actions (web/features/rooms/e2e/e2e-row-menu.tsx): one menu button a
// row, named as the plain room's file menu ("Actions for file …" / "Actions for folder …"), whose
// items are Download, Details, Versions, Rename, Move and Delete as the role allows.
import type { Locator, Page } from '@playwright/test';
import { locale } from './fixtures';

const rooms = locale<typeof import('@locales/en/rooms.json')>('en', 'rooms');
const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');

/** The row's menu button (in `scope`: the page or a table or row). */
export const e2eRowMenu = (scope: Page | Locator, name: string, kind: 'file' | 'folder' = 'file') =>
  scope.getByRole('button', { name: fill(kind === 'file' ? rooms.files.actionsFor : rooms.room.actionsFor, { name }), exact: true });

/** Opens the row's menu and clicks `item` (a text of the rooms namespace, e.g. rooms.rename.action). */
export async function e2eRowAction(scope: Page | Locator, name: string, item: string, kind: 'file' | 'folder' = 'file'): Promise<void> {
  await e2eRowMenu(scope, name, kind).click();
  const page = 'page' in scope && typeof scope.page === 'function' ? scope.page() : (scope as Page);
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

/** The menu's texts the specs click. */
export const ROW_ITEMS = {
  download: rooms.e2e.download,
  preview: rooms.preview.action,
  details: rooms.details.action,
  versions: rooms.versions.action,
  rename: rooms.rename.action,
  move: rooms.move.action,
  delete: rooms.delete.action,
};
