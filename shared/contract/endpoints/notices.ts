import { endpointArea, NoContentSchema } from '../endpoint';
import { NoticeListQuerySchema, NoticeListSchema, NoticeParamsSchema } from '../notices';

const area = endpointArea({ tag: 'notices', access: 'authenticated' });

/** In-app notices (shared/contract/notices.ts): signed-in users, each only their own (another's is 404). */
export const NOTICE_ENDPOINTS = {
  list: area.get('/notices', 'listNotices', 'The signed-in user’s notices, newest first, with the unread count', {
    query: NoticeListQuerySchema, response: { 200: NoticeListSchema }, errors: [400, 401],
  }),
  read: area.post('/notices/{noticeUuid}/read', 'readNotice', 'Marks one of the own notices read', {
    params: NoticeParamsSchema, response: { 204: NoContentSchema }, errors: [400, 401, 404],
  }),
  readAll: area.post('/notices/read-all', 'readAllNotices', 'Marks every own notice read', {
    response: { 204: NoContentSchema }, errors: [401],
  }),
};
