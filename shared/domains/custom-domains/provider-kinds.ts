import * as z from 'zod/mini';
import { PROVIDER_KINDS } from '../../ports/dns/port';

/** The DNS providers an organization may connect: the ones the DNS port has an adapter for. */
export const ProviderKindSchema = z.enum(PROVIDER_KINDS);
