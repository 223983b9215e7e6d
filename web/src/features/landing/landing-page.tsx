import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { Link } from '../../lib/router.tsx';
import { Testimonials } from './testimonials.tsx';

const usefulInfo = [
  messages.landingUsefulOnTheMap,
  messages.landingUsefulTracking,
  messages.landingUsefulDelivery,
  messages.landingUsefulAnyoneRuns,
  messages.landingUsefulUnits,
];

export function LandingPage() {
  return (
    <div className="landing">
      <section className="hero">
        <h1>{messages.landingTitle}</h1>
        <p className="lead">{messages.landingLead}</p>
        <div className="actions">
          <Link className="button primary" to={paths.registerChoice}>
            {messages.landingRegister}
          </Link>
          <Link className="button" to={paths.login}>
            {messages.landingSignIn}
          </Link>
        </div>
      </section>

      <section className="about" aria-labelledby="about-title">
        <h2 id="about-title">{messages.landingAboutTitle}</h2>
        <p>{messages.landingAbout}</p>
        <Link className="button primary" to={paths.registerChoice}>
          {messages.landingGetStarted}
        </Link>
      </section>

      <section className="useful" aria-labelledby="useful-title">
        <h2 id="useful-title">{messages.usefulInfoTitle}</h2>
        <ul>
          {usefulInfo.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </section>

      <Testimonials />
    </div>
  );
}
