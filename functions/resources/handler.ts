import { httpHandler } from '../../shared/kernel/http/handler';
import { routeIndex } from './route-index';

export const handler = httpHandler(routeIndex);
