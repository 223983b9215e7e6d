import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { useEffect, useState } from 'react';
import { useSession, useSignOut } from '../api/session.ts';
import { notify } from '../lib/notify.ts';
import { NavLink, useLocation } from '../lib/router.tsx';
import { useIsDesktop } from '../lib/use-window-width.ts';
import { LanguageSwitch } from './language-switch.tsx';
import { type MenuItem, menuFor } from './menu.ts';

function Logo() {
  return (
    <NavLink to={paths.home} className="logo" aria-label={messages.homeLinkLabel}>
      <svg width="26" height="26" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="6" fill="currentColor" />
        <path
          d="M8 11l8-4 8 4v10l-8 4-8-4zM8 11l8 4 8-4M16 15v10"
          fill="none"
          stroke="#fff"
          strokeWidth="2"
          strokeLinejoin="round"
        />
      </svg>
      <span className="logo-text">{messages.appName}</span>
    </NavLink>
  );
}

function MenuLinks({ items, onNavigate }: { items: MenuItem[]; onNavigate?: () => void }) {
  const { data: account } = useSession();
  const signOut = useSignOut();
  return (
    <ul className="menu">
      {items.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} end={item.to === paths.home} {...(onNavigate ? { onClick: onNavigate } : {})}>
            {item.label}
          </NavLink>
        </li>
      ))}
      {account && (
        <li>
          <a
            href={paths.home}
            onClick={(event) => {
              event.preventDefault();
              onNavigate?.();
              signOut().catch(notify.error);
            }}
          >
            {messages.signOut}
          </a>
        </li>
      )}
    </ul>
  );
}

/** SPEC §1: an inline bar from 1024 px, a hamburger drawer below. */
export function Header() {
  const isDesktop = useIsDesktop();
  const { data: account } = useSession();
  const items = menuFor(account ?? null);
  const [open, setOpen] = useState(false);
  const location = useLocation();

  // A new page closes the drawer; so does Escape.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation on purpose
  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  if (isDesktop) {
    return (
      <header className="header header-desktop">
        <Logo />
        <nav aria-label={messages.mainMenuLabel}>
          <MenuLinks items={items} />
        </nav>
        <LanguageSwitch />
      </header>
    );
  }
  return (
    <header className="header header-mobile">
      <Logo />
      <LanguageSwitch />
      <button
        type="button"
        className="hamburger"
        aria-label={messages.menuButtonLabel}
        aria-expanded={open}
        aria-controls="drawer"
        onClick={() => setOpen((value) => !value)}
      >
        <svg width="24" height="20" viewBox="0 0 24 20" aria-hidden="true">
          <rect y="1" width="24" height="2.5" rx="1.25" />
          <rect y="8.75" width="24" height="2.5" rx="1.25" />
          <rect y="16.5" width="24" height="2.5" rx="1.25" />
        </svg>
      </button>
      {open && (
        <>
          <div className="drawer-backdrop" aria-hidden="true" onClick={() => setOpen(false)} />
          <nav id="drawer" className="drawer" aria-label={messages.mainMenuLabel}>
            <MenuLinks items={items} onNavigate={() => setOpen(false)} />
          </nav>
        </>
      )}
    </header>
  );
}
