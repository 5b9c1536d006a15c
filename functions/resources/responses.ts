import type { ResponseDocs } from '../../shared/http/responses';

/** Success responses of the resources routes (see shared/http/responses.ts): documentation only. */
export const responses: ResponseDocs = {};
