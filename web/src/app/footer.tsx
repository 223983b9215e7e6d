import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import type { ReactNode } from 'react';
import { Link } from '../lib/router.tsx';

// The networks' own names, the same in every language.
const socials = [
  { name: 'Facebook', path: 'M14 8h3V4h-3c-2.8 0-4 1.8-4 4.5V10H7v4h3v8h4v-8h3l1-4h-4V8.6c0-.4.3-.6.6-.6z' },
  {
    name: 'Instagram',
    path: 'M7 3h10a4 4 0 0 1 4 4v10a4 4 0 0 1-4 4H7a4 4 0 0 1-4-4V7a4 4 0 0 1 4-4zm5 5a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm5.5-1.5a1 1 0 1 0 0 2 1 1 0 0 0 0-2z',
  },
  {
    name: 'YouTube',
    path: 'M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4A2.5 2.5 0 0 0 2.4 7.2 26 26 0 0 0 2 12a26 26 0 0 0 .4 4.8 2.5 2.5 0 0 0 1.8 1.8c1.6.4 7.8.4 7.8.4s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8A26 26 0 0 0 22 12a26 26 0 0 0-.4-4.8zM10 15V9l5.2 3z',
  },
];

/** The operator's pages (issue 29): their text is the operator's (server/src/modules/pages). */
const operatorPages = [
  { label: messages.footerPrivacy, path: paths.privacy },
  { label: messages.footerContact, path: paths.contact },
  { label: messages.footerImprint, path: paths.imprint },
];

/** SPEC §1 keeps the social links as placeholders pointing to '#'. */
function PlaceholderLink({ children }: { children: ReactNode }) {
  // biome-ignore lint/a11y/useValidAnchor: the product has no such pages yet; SPEC keeps '#'
  return <a href="#">{children}</a>;
}

export function Footer() {
  return (
    <footer className="footer">
      <ul className="socials">
        {socials.map((social) => (
          <li key={social.name}>
            <PlaceholderLink>
              <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
                <path d={social.path} />
              </svg>
              <span className="visually-hidden">{social.name}</span>
            </PlaceholderLink>
          </li>
        ))}
      </ul>
      <ul className="footer-links">
        {operatorPages.map(({ label, path }) => (
          <li key={path}>
            <Link to={path}>{label}</Link>
          </li>
        ))}
      </ul>
      <p className="copyright">{messages.copyright(new Date().getFullYear())}</p>
    </footer>
  );
}
