import type { ResponseDocs } from '../../shared/http/responses';

/** Success responses of the databases routes (see shared/http/responses.ts): documentation only. */
export const responses: ResponseDocs = {};
