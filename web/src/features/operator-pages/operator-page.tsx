import { messages } from '@csomag/domain/messages';
import type { OperatorPage } from '@csomag/domain/operator-pages';
import { useOperatorPage } from '../../api/operator-pages.ts';
import { QueryState } from '../../components/query-state.tsx';

const titles: Record<OperatorPage, string> = {
  privacy: messages.footerPrivacy,
  contact: messages.footerContact,
  imprint: messages.footerImprint,
};

/**
 * The operator's privacy notice, contact or imprint (issue 29), as they wrote it in Markdown. The
 * server renders it with raw HTML escaped and script links refused, so it is shown as it comes.
 */
function OperatorPageView({ page }: { page: OperatorPage }) {
  const query = useOperatorPage(page);
  return (
    <section className="page narrow">
      <QueryState query={query} describeError={() => messages.operatorPageLoadFailed}>
        {({ html }) =>
          html ? (
            // biome-ignore lint/security/noDangerouslySetInnerHtml: markdown-it on the server escapes raw HTML and refuses script links (pages/service.ts)
            <article className="card prose" dangerouslySetInnerHTML={{ __html: html }} />
          ) : (
            <>
              <h1>{titles[page]}</h1>
              <p>{messages.operatorPageNotPublished}</p>
            </>
          )
        }
      </QueryState>
    </section>
  );
}

export const PrivacyPage = () => <OperatorPageView page="privacy" />;
export const ContactPage = () => <OperatorPageView page="contact" />;
export const ImprintPage = () => <OperatorPageView page="imprint" />;
