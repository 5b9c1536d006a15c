import { useCallback, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * A form field's value kept in sessionStorage, keyed by the route and the form, as the person
 * types: when the session ends (a 401) the app shows sign-in, and after it the same page finds
 * the draft again. `clear` once the write succeeded.
 */
export function useDraft<T>(form: string, initial: T): [T, (value: T) => void, () => void] {
  const { pathname, search } = useLocation();
  const key = `draft:${pathname}${search}:${form}`;
  const empty = useRef(initial);
  const [value, setValue] = useState<T>(() => {
    const raw = sessionStorage.getItem(key);
    if (raw === null) return initial;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return initial;
    }
  });
  const update = useCallback(
    (next: T) => {
      setValue(next);
      sessionStorage.setItem(key, JSON.stringify(next));
    },
    [key],
  );
  const clear = useCallback(() => {
    sessionStorage.removeItem(key);
    setValue(empty.current);
  }, [key]);
  return [value, update, clear];
}
