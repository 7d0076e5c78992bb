import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JWTPayload } from 'jose';
import { requestAud } from './context';
import { authErrors } from './errors';
import { userJson } from './user-json';
import { listUsers, type Queryable } from './users';

/** GoTrue's `defaultPerPage` (api/pagination.go). */
const defaultPerPage = 50;

/** GET /admin/users (`adminUsers`): offset pages with GoTrue's `Link` and `X-Total-Count`. */
export async function listUsersPage(
  pool: Queryable,
  { request, response, url }: { request: IncomingMessage; response: ServerResponse; url: URL },
  claims: JWTPayload,
) {
  const sort = url.searchParams.get('sort');
  let ascending = false;
  if (sort !== null) {
    const [field = '', direction] = sort.split(' ', 2);
    if (field !== 'created_at')
      throw authErrors.validation(`Bad Sort Parameters: bad field for sort '${field}'`);
    if (direction !== undefined && !/^(asc|desc)$/i.test(direction))
      throw authErrors.validation(
        `Bad Sort Parameters: bad direction for sort '${direction}', only 'asc' and 'desc' allowed`,
      );
    ascending = direction?.toLowerCase() === 'asc';
  }
  const pageParam = (name: string, fallback: number) => {
    const text = url.searchParams.get(name) ?? '';
    if (text === '') return fallback;
    if (!/^\d+$/.test(text))
      throw authErrors.validation(
        `Bad Pagination Parameters: strconv.ParseUint: parsing ${JSON.stringify(text)}: invalid syntax`,
      );
    return Number(text);
  };
  // Pop's paginator reads a page below 1 as 1 and a page size below 1 as 20.
  const page = Math.max(pageParam('page', 1), 1);
  const perPage = pageParam('per_page', defaultPerPage) || 20;
  const aud = requestAud(request, claims);
  const { users, total } = await listUsers(pool, {
    aud,
    filter: url.searchParams.get('filter') ?? '',
    ascending,
    limit: perPage,
    offset: (page - 1) * perPage,
  });
  // api/pagination.go `addPaginationHeaders`: the request's own path and query, page replaced.
  const totalPages = Math.ceil(total / perPage);
  const linkTo = (target: number) => {
    const query = new URLSearchParams(url.searchParams);
    query.set('page', String(target));
    query.sort();
    return `<${url.pathname.replace(/^\/auth\/v1/, '')}?${query}>`;
  };
  const link = `${totalPages > page ? `${linkTo(page + 1)}; rel="next", ` : ''}${linkTo(totalPages)}; rel="last"`;
  response.setHeader('Link', link);
  response.setHeader('X-Total-Count', String(total));
  return { users: users.map(userJson), aud };
}
