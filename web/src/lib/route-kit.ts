import type { ComponentType } from 'react';

/** Each page is its own chunk, loaded when its route is first opened. */
export const page = (load: () => Promise<{ default: ComponentType }>) => ({
  lazy: async () => ({ Component: (await load()).default }),
});

/** Where an organization's pages live. */
export const org = 'orgs/:orgId';
