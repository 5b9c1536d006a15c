import { useEffect, useRef, useState } from 'react';
import { type AuthState, signIn } from '../lib/auth';
import { Button } from './controls';

const reasons: Record<string, string> = {
  expired: 'Your session ended. Sign in again to carry on: what you typed is kept.',
  'signed-out': 'You signed out.',
};

export function SignInScreen({ state }: { state: Exclude<AuthState, { status: 'signed-in' }> }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = 'Sign in · Platform';
    heading.current?.focus();
  }, []);
  const note = state.reason === 'failed' ? state.message : state.reason ? reasons[state.reason] : undefined;
  return (
    <main className="mx-auto mt-16 max-w-md rounded-lg border border-slate-200 p-6 shadow-sm">
      <h1 ref={heading} tabIndex={-1} className="text-2xl font-semibold outline-none">
        Sign in to the platform
      </h1>
      <p className="mt-2 text-sm text-slate-700">
        Projects, deployments, repositories and pull requests of your organizations.
      </p>
      {note && (
        <p role={state.reason === 'failed' ? 'alert' : 'status'} className="mt-4 text-sm">
          {note}
        </p>
      )}
      <Button
        tone="primary"
        className="mt-6 w-full"
        isDisabled={busy}
        onPress={() => {
          setBusy(true);
          signIn().catch((err: Error) => {
            setError(err.message);
            setBusy(false);
          });
        }}
      >
        Sign in
      </Button>
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-800">
          {error}
        </p>
      )}
    </main>
  );
}
