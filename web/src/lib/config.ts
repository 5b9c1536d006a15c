/** What the app reads at start from `/app/config.json` (written by whoever serves the app). */
export interface AppConfig {
  /** The API's origin; '' means this page's own origin. */
  apiUrl: string;
  /** The identity provider's issuer: discovery at `${authUrl}/.well-known/openid-configuration`. */
  authUrl: string;
  clientId: string;
  /** Where the identity provider sends the browser back with the code (`…/app/callback`). */
  redirectUri: string;
}

let loaded: AppConfig | undefined;

export async function loadConfig(): Promise<AppConfig> {
  const res = await fetch(`${import.meta.env.BASE_URL}config.json`, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`The app's configuration could not be read (${res.status}).`);
  const config = (await res.json()) as Partial<AppConfig>;
  for (const field of ['authUrl', 'clientId', 'redirectUri'] as const) {
    if (typeof config[field] !== 'string' || config[field] === '') {
      throw new Error(`The app's configuration has no ${field}.`);
    }
  }
  loaded = { ...(config as AppConfig), apiUrl: config.apiUrl ?? '' };
  return loaded;
}

export function config(): AppConfig {
  if (!loaded) throw new Error('The configuration is not loaded yet.');
  return loaded;
}

/** The API's base address for the typed client. */
export const apiBase = () => config().apiUrl.replace(/\/+$/, '') || window.location.origin;
