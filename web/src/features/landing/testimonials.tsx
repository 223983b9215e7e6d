import { useState } from 'react';

const testimonials = [
  {
    quote:
      'Reggel feladtam a nagymamámnak a születésnapi csomagot, délután már nála volt. Végig láttam a térképen, hol jár.',
    name: 'Kovács Anna',
    role: 'Feladó, Budapest',
  },
  {
    quote: 'Vidékre küldtem iratokat, olcsóbban és gyorsabban, mint bárhol máshol. A QR kódos átadás pofonegyszerű.',
    name: 'Szabó Gergely',
    role: 'Feladó, Szeged',
  },
  {
    quote: 'Munkába menet villamosról viszek csomagokat. Azt szállítok, ami útba esik, és még keresek is vele.',
    name: 'Tóth Réka',
    role: 'Futár, Budapest',
  },
] as const;

/** SPEC §1: three hard-coded cards; the arrows are disabled at either end. */
export function Testimonials() {
  const [index, setIndex] = useState(0);
  const current = testimonials[index] ?? testimonials[0];
  return (
    <section className="testimonials" aria-labelledby="testimonials-title">
      <h2 id="testimonials-title">Rólunk mondták</h2>
      <div className="carousel">
        <button
          type="button"
          className="arrow"
          aria-label="Előző"
          disabled={index === 0}
          onClick={() => setIndex((i) => i - 1)}
        >
          ‹
        </button>
        <figure className="card testimonial" aria-live="polite">
          <blockquote>„{current.quote}”</blockquote>
          <figcaption>
            <strong>{current.name}</strong> – {current.role}
          </figcaption>
          <p className="muted">
            {index + 1} / {testimonials.length}
          </p>
        </figure>
        <button
          type="button"
          className="arrow"
          aria-label="Következő"
          disabled={index === testimonials.length - 1}
          onClick={() => setIndex((i) => i + 1)}
        >
          ›
        </button>
      </div>
    </section>
  );
}
