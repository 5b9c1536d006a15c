import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { completeSignIn, shouldTrySilently, signIn } from './lib/auth';
import { config, loadConfig } from './lib/config';
import './app.css';

/**
 * Start: read `/app/config.json`; at the redirect URI take the identity provider's answer; with
 * no token yet, try the provider's session once without a page (`prompt=none`); then the app.
 */
const root = createRoot(document.getElementById('root') as HTMLElement);

function Message({ text, alert }: { text: string; alert?: boolean }) {
  return (
    <main className="mx-auto max-w-xl p-6">
      <h1 className="text-xl font-semibold">Platform</h1>
      <p role={alert ? 'alert' : 'status'} className="mt-3 text-sm">
        {text}
      </p>
    </main>
  );
}

async function boot() {
  try {
    await loadConfig();
  } catch (err) {
    root.render(<Message alert text={(err as Error).message} />);
    return;
  }
  const callback = new URL(config().redirectUri, window.location.origin).pathname;
  if (window.location.pathname === callback) {
    root.render(<Message text="Signing in…" />);
    const returnTo = await completeSignIn(new URLSearchParams(window.location.search));
    window.history.replaceState(null, '', returnTo);
  } else if (shouldTrySilently()) {
    root.render(<Message text="Signing in…" />);
    try {
      await signIn({ silent: true });
      return;
    } catch {
      // The identity provider is unreachable: the sign-in page says so when the person tries.
    }
  }
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void boot();
