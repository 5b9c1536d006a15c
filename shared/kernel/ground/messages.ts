/**
 * Answers given in the same words by several floors and route groups, written once. The middy
 * stack answers `ORG_NOT_FOUND` for every org-scoped route (shared/kernel/auth), and the OpenAPI document
 * lists it there (lib/openapi.ts): a route lists it only where its own code answers it too.
 */
export const ORG_NOT_FOUND = 'Organization not found';
