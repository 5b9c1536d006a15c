import { httpHandler } from '../../shared/http/handler';
import { routes } from './routes';

export const handler = httpHandler(routes);
