import { QueryClientProvider } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { RouterProvider } from 'react-router';
import { authState, subscribeAuth } from './lib/auth';
import { queryClient } from './lib/query';
import { appRouter } from './routes';
import { SignInScreen } from './ui/signin';

/** Signed in: the pages; otherwise the sign-in screen at the same address (it comes back here). */
export function App() {
  const auth = useSyncExternalStore(subscribeAuth, authState);
  if (auth.status !== 'signed-in') return <SignInScreen state={auth} />;
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={appRouter()} />
    </QueryClientProvider>
  );
}
