// `npm run bench -- rooms` (issue 15 "Proof"): a data-room folder at scale. One real server (SQLite,
// or PostgreSQL with KUVERT_TEST_DATABASE_URL), one room with a folder of 10 000 files and one of
// 100 (rows written straight into the real schema, tests/support/seed-room-files.ts), asked in
// turns over HTTP so a busy machine slows both alike. Figures, p95 on the large folder / on the small:
//   - the first page of the folder, by name (what opening a folder costs), and
//   - a page 90 % down the folder by cursor (what scrolling costs). The small folder's page by
//     cursor starts after its first file, so both sides read a full page (99 / 100 rows): 90 % down
//     a folder of 100 is a page of 10, which made the figure compare 100 rows with 10 (ratio 1.8 to
//     3.7 with the same server time per row; the large folder's deep page cost what its first did).
// Target ≤ 1.5 each: a page reads a page's rows whatever the folder holds (server/rooms/plain/file-pages.ts,
// index of migration 0038).
import { sql } from 'kysely';
import { ROOM_PATHS, type Room, type RoomContents, type RoomFolder } from '@shared/contract/rooms';
import { call, createUserAsAdmin, signIn, signInAdmin, type Session } from '../integration/core-helpers';
import { seedRoomFiles } from '../support/seed-room-files';
import { startTestServer } from '../support/server';
import { figure, type Figure } from './report';

const PAGE = 100;
const OWNER = { email: 'owner@rooms-bench.test', password: 'Good-Passw0rd' };

export interface RoomsBenchOptions {
  quick?: boolean;
}

const p95 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
};
const round = (n: number) => Math.round(n * 100) / 100;

interface Folder {
  uuid: string;
  files: number;
  deepCursor: string;
  times: { first: number[]; deep: number[] };
}

export async function benchRooms(options: RoomsBenchOptions = {}): Promise<Figure[]> {
  const sizes = { large: options.quick ? 2_000 : 10_000, small: 100, samples: options.quick ? 20 : 200 };
  const server = await startTestServer();
  try {
    const admin = await signInAdmin(server);
    await createUserAsAdmin(server, admin, { ...OWNER, roleNames: ['ROLE_SECUROOMS_CREATOR'] });
    const owner: Session = await signIn(server, OWNER.email, OWNER.password);
    const api = (path: string) => `/api/2${path}`;
    const room = (await (await call(server, owner, 'POST', api(ROOM_PATHS.rooms), { name: 'Bench' })).json()) as Room;
    const url = (folderUuid: string, query: string) => `${server.url}${api(ROOM_PATHS.folder(room.uuid, folderUuid))}?${query}`;

    async function timedGet(folder: Folder, query: string): Promise<number> {
      const started = performance.now();
      const response = await fetch(url(folder.uuid, query), { headers: { cookie: owner.cookie } });
      const page = (await response.json()) as RoomContents;
      const elapsed = performance.now() - started;
      if (response.status !== 200 || page.files.length === 0 || page.totalFiles !== folder.files) {
        throw new Error(`rooms bench: unexpected answer ${response.status} ${JSON.stringify(page).slice(0, 200)}`);
      }
      return elapsed;
    }

    async function folderOf(name: string, files: number): Promise<Folder> {
      const created = (await (await call(server, owner, 'POST', api(ROOM_PATHS.folders(room.uuid)), { name })).json()) as RoomFolder;
      await seedRoomFiles(server.app.db, { roomUuid: room.uuid, folderUuid: created.uuid, count: files, name: (i) => `Report ${String(i).padStart(6, '0')}.pdf`, uploaderEmail: OWNER.email });
      // The cursor of the page that starts 90 % down (walked once, not timed); a folder no larger
      // than a page: the cursor after its first file (a full page from a cursor, see above).
      const deepAt = files > PAGE ? Math.floor(files * 0.9) : 1;
      let cursor: string | null = null;
      for (let seen = 0; seen < deepAt; ) {
        const step = Math.min(1000, deepAt - seen);
        const response = await fetch(url(created.uuid, `pageSize=${step}${cursor ? `&cursor=${cursor}` : ''}`), { headers: { cookie: owner.cookie } });
        const page = (await response.json()) as RoomContents;
        cursor = page.nextCursor;
        seen += page.files.length;
      }
      if (!cursor) throw new Error('rooms bench: no deep cursor');
      return { uuid: created.uuid, files, deepCursor: cursor, times: { first: [], deep: [] } };
    }

    const small = await folderOf('Small', sizes.small);
    const large = await folderOf('Large', sizes.large);
    // The rows arrived in one burst a second ago; PostgreSQL's autovacuum would ANALYZE the table
    // within its minute and the planner then walks the listing index in order instead of sorting.
    // The bench measures that steady state rather than the first minute after a bulk import.
    if (server.app.databaseKind === 'postgres') await sql`analyze room_files`.execute(server.app.db);
    for (let turn = -2; turn < sizes.samples / 5; turn++) {
      for (const folder of [small, large]) {
        for (let k = 0; k < 5; k++) {
          const first = await timedGet(folder, `pageSize=${PAGE}`);
          const deep = await timedGet(folder, `pageSize=${PAGE}&cursor=${folder.deepCursor}`);
          if (turn >= 0) {
            folder.times.first.push(first);
            folder.times.deep.push(deep);
          }
        }
      }
    }
    const kind = server.app.databaseKind;
    return (['first', 'deep'] as const).map((what) =>
      figure({
        name: `rooms.folder.${what}.p95`,
        value: round(p95(large.times[what])),
        unit: 'ms',
        baseline: round(p95(small.times[what])),
        target: 1.5,
        direction: 'max',
        note: `GET a folder, ${what === 'first' ? 'first page' : `a page 90 % down by cursor (the ${sizes.small}: after its first file)`} of ${PAGE} by name: p95 with ${sizes.large} files / with ${sizes.small} (lower is better); ${sizes.samples} requests each over HTTP, ${kind}`,
      }),
    );
  } finally {
    await server.close();
  }
}
