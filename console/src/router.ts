/**
 * Hash routing (`/admin/#/applications/abc`), so the server serves one page
 * and needs no catch-all route.
 */
import { useEffect, useState } from 'preact/hooks';

/** The path segments after `#/`, decoded: `#/users/auth0%7Cx` → ['users', 'auth0|x']. */
export function currentRoute(): string[] {
  return location.hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

/** The href of a route: `href('users', id)` → `#/users/<id>`. */
export const href = (...segments: string[]): string => `#/${segments.map(encodeURIComponent).join('/')}`;

export const navigate = (...segments: string[]): void => {
  location.hash = href(...segments).slice(1);
};

export function useRoute(): string[] {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const changed = () => setRoute(currentRoute());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}
