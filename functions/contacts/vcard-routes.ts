import type { Route } from '../../shared/http/route';

/** vCard import and export (see shared/contacts/vcard-*.ts). */
export const vcardRoutes: Route[] = [];
