import { httpHandler } from '../../shared/http/handler';
import { routeIndex } from './route-index';

export const handler = httpHandler(routeIndex);
