import { getAdminUsers } from '@shared/api/endpoints/secupass';
import type { ListUsersResponse } from '@shared/contract/admin-users';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

export interface UsersQuery {
  q: string;
  page: number;
  pageSize: number;
}

/** GET /admin/users?q=&page=&pageSize= (ROLE_ADMIN, ROLE_USER_ADMIN): users ordered by email. */
export const fetchUsers = ({ q, page, pageSize }: UsersQuery): Promise<ListUsersResponse> => getAdminUsers(apiClient, { q, page, pageSize });

export const useUsers = (query: UsersQuery) =>
  useSWR(['admin/users', query.q, query.page, query.pageSize] as const, ([, q, page, pageSize]) => fetchUsers({ q, page, pageSize }), {
    keepPreviousData: true,
    revalidateOnFocus: false,
  });
