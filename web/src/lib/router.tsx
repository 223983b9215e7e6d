/**
 * The app's router: the address, history, links and the route table's matching, the few parts of
 * React Router this app used (docs/decisions/0035-own-router.md). React Router's declarative mode
 * was 12.2 KiB of every page's scripts on the wire, an eighth of the landing page's. Navigations
 * are transitions as they were there: the page left stays until the next one has loaded, and
 * `window.location` names the new page meanwhile (app/guard.tsx relies on that).
 */
import {
  Children,
  type ComponentPropsWithRef,
  createContext,
  isValidElement,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';

export interface Location {
  /** As the address has it (percent-encoded). */
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation that made this entry carried (the sign-in page's way back). */
  state: unknown;
  /** The history entry's own key; 'default' for the entry a tab opened on or loaded from its address. */
  key: string;
}

/** How the present entry was reached: back or forward (or the first load), a new entry, or in place. */
export type NavigationType = 'POP' | 'PUSH' | 'REPLACE';
export type To = string | { pathname?: string; search?: string; hash?: string };
export interface NavigateOptions {
  replace?: boolean | undefined;
  state?: unknown;
}
type Navigate = (to: To, options?: NavigateOptions) => void;

interface Routing {
  location: Location;
  type: NavigationType;
  navigate: Navigate;
}

const RoutingContext = createContext<Routing | null>(null);
const ParamsContext = createContext<Readonly<Record<string, string>>>({});
const OutletContext = createContext<ReactNode>(null);

function useRouting(): Routing {
  const routing = useContext(RoutingContext);
  if (!routing) throw new Error('router: used outside <BrowserRouter> or <StaticRouter>');
  return routing;
}

// ——— the browser's history ———

/** The entry's state as it is kept: React Router's shape, so entries made before this router still read. */
interface EntryState {
  usr: unknown;
  key: string;
}

function readLocation(): Location {
  const { pathname, search, hash } = window.location;
  const entry = window.history.state as Partial<EntryState> | null;
  return { pathname, search, hash, state: entry?.usr ?? null, key: entry?.key ?? 'default' };
}

const hrefOf = (to: To): string =>
  typeof to === 'string' ? to : `${to.pathname ?? window.location.pathname}${to.search ?? ''}${to.hash ?? ''}`;

const newKey = () => Math.random().toString(36).slice(2, 10);

export function BrowserRouter({ children }: { children: ReactNode }) {
  const [place, setPlace] = useState(() => ({ location: readLocation(), type: 'POP' as NavigationType }));

  useEffect(() => {
    const onPop = () => startTransition(() => setPlace({ location: readLocation(), type: 'POP' }));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const navigate = useCallback<Navigate>((to, { replace = false, state = null } = {}) => {
    const url = new URL(hrefOf(to), window.location.href);
    const entry: EntryState = { usr: state, key: newKey() };
    if (replace) window.history.replaceState(entry, '', url);
    else {
      try {
        window.history.pushState(entry, '', url);
      } catch {
        // Safari refuses more than 100 entries in 30 s: the page is loaded the old way.
        window.location.assign(url);
        return;
      }
    }
    startTransition(() => setPlace({ location: readLocation(), type: replace ? 'REPLACE' : 'PUSH' }));
  }, []);

  const routing = useMemo(() => ({ ...place, navigate }), [place, navigate]);
  return <RoutingContext.Provider value={routing}>{children}</RoutingContext.Provider>;
}

/** A page rendered at build time (prerender.tsx): one address, no history. */
export function StaticRouter({ location, children }: { location: string; children: ReactNode }) {
  const routing = useMemo<Routing>(() => {
    const url = new URL(location, 'http://localhost');
    return {
      location: { pathname: url.pathname, search: url.search, hash: url.hash, state: null, key: 'default' },
      type: 'POP',
      navigate: () => {},
    };
  }, [location]);
  return <RoutingContext.Provider value={routing}>{children}</RoutingContext.Provider>;
}

// ——— hooks ———

export const useLocation = (): Location => useRouting().location;
export const useNavigationType = (): NavigationType => useRouting().type;
export const useNavigate = (): Navigate => useRouting().navigate;
/** The matched route's parameters, decoded. */
export const useParams = (): Readonly<Partial<Record<string, string>>> => useContext(ParamsContext);

type SearchInit = URLSearchParams | string | Record<string, string>;

/** The address's search parameters, and a setter that navigates to the same page with others. */
export function useSearchParams(): [
  URLSearchParams,
  (next: SearchInit | ((current: URLSearchParams) => SearchInit), options?: NavigateOptions) => void,
] {
  const { location, navigate } = useRouting();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const setParams = useCallback(
    (next: SearchInit | ((current: URLSearchParams) => SearchInit), options?: NavigateOptions) => {
      const search = new URLSearchParams(typeof next === 'function' ? next(params) : next).toString();
      navigate({ search: search ? `?${search}` : '', hash: '' }, options);
    },
    [params, navigate],
  );
  return [params, setParams];
}

// ——— matching ———

/** The pathname as the routes name it: each segment decoded (a `/` inside one stays encoded). */
export function decodePath(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment).replace(/\//g, '%2F');
      } catch {
        return segment;
      }
    })
    .join('/');
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean);
/** Segments compare regardless of case (React Router's rule). */
const sameSegment = (a: string, b: string | undefined) => a.toLowerCase() === b?.toLowerCase();

/**
 * A route's pattern against a decoded pathname: `*` takes anything, `:name` one segment; the
 * rest regardless of case and of a trailing slash (React Router's rules). The parameters, or null.
 */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  if (pattern === '*') return {};
  const wanted = segmentsOf(pattern);
  const given = segmentsOf(pathname);
  if (wanted.length !== given.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of wanted.entries()) {
    const value = given[index] as string;
    if (segment.startsWith(':')) params[segment.slice(1)] = value;
    else if (!sameSegment(segment, value)) return null;
  }
  return params;
}

interface RouteProps {
  /** None for a layout: its `element` shows the matched child where it puts an <Outlet />. */
  path?: string;
  element: ReactNode;
  children?: ReactNode;
}

/** One row of the route table; rendered only through <Routes>. */
export function Route(_: RouteProps): ReactElement | null {
  return null;
}

/** The routes from a layout down to the one whose pattern matches, in their order; else null. */
function matchRoutes(
  children: ReactNode,
  pathname: string,
): { chain: RouteProps[]; params: Record<string, string> } | null {
  for (const child of Children.toArray(children)) {
    if (!isValidElement<RouteProps>(child)) continue;
    const route = child.props;
    if (route.path === undefined) {
      const inner = matchRoutes(route.children, pathname);
      if (inner) return { chain: [route, ...inner.chain], params: inner.params };
      continue;
    }
    const params = matchPath(route.path, pathname);
    if (params) return { chain: [route], params };
  }
  return null;
}

/** The first route (in order) whose pattern matches the address, inside its layouts. */
export function Routes({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  // Kept while only the search, hash or state changes: the same params to every page below.
  const matched = useMemo(() => matchRoutes(children, decodePath(pathname)), [children, pathname]);
  const params = useMemo(() => matched?.params ?? {}, [matched]);
  if (!matched) return null;
  // Inside out: each layout shows what is below it where it puts its <Outlet />.
  let page: ReactNode = null;
  for (const route of [...matched.chain].reverse()) {
    page = <OutletContext.Provider value={page}>{route.element}</OutletContext.Provider>;
  }
  return <ParamsContext.Provider value={params}>{page}</ParamsContext.Provider>;
}

/** Where a layout shows the page the address matched. */
export const Outlet = () => <>{useContext(OutletContext)}</>;

// ——— links ———

interface LinkProps extends Omit<ComponentPropsWithRef<'a'>, 'href'>, NavigateOptions {
  to: To;
}

const modified = (event: MouseEvent) => event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;

/** Whether `to` is the address shown now (its hash included, as React Router compares). */
const isShown = (to: To) => new URL(hrefOf(to), window.location.href).href === window.location.href;

/** A link followed in the page (a new tab, a modified click or another target: the browser's own way). */
export function Link({ to, replace, state, onClick, target, ...props }: LinkProps) {
  const { navigate } = useRouting();
  return (
    <a
      {...props}
      href={typeof to === 'string' ? to : hrefOf(to)}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || event.button !== 0 || modified(event) || (target && target !== '_self')) return;
        event.preventDefault();
        // A link to the page already shown replaces its entry rather than repeating it.
        navigate(to, { replace: replace ?? isShown(to), state });
      }}
    />
  );
}

/**
 * Whether a menu's link to `to` is on its page: the page itself, or one below it unless `end`; the
 * home page has every page below it, so only itself counts. Both as the address has them.
 */
export function isLinkActive(to: string, pathname: string, end: boolean): boolean {
  const target = segmentsOf(decodePath(to));
  const here = segmentsOf(decodePath(pathname));
  const below = !end && target.length > 0;
  return (
    (below ? here.length >= target.length : here.length === target.length) &&
    target.every((segment, index) => sameSegment(segment, here[index]))
  );
}

/** A menu's link: `active` and `aria-current="page"` on its page (isLinkActive). */
export function NavLink({ end = false, className, ...props }: LinkProps & { end?: boolean }) {
  const { pathname } = useLocation();
  const active = isLinkActive(typeof props.to === 'string' ? props.to : (props.to.pathname ?? pathname), pathname, end);
  return (
    <Link
      {...props}
      className={[className, active ? 'active' : undefined].filter(Boolean).join(' ') || undefined}
      {...(active ? { 'aria-current': 'page' as const } : {})}
    />
  );
}

/** Navigates once drawn (a guard's redirect). */
export function Navigate({ to, replace, state }: { to: To } & NavigateOptions) {
  const { navigate } = useRouting();
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as drawn
  useEffect(() => navigate(to, { replace, state }), []);
  return null;
}
