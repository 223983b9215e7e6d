import { messages } from '@csomag/domain/messages';
import { useState } from 'react';

const testimonials = [
  {
    quote: messages.testimonialAnnaQuote,
    name: messages.testimonialAnnaName,
    role: messages.testimonialAnnaRole,
  },
  {
    quote: messages.testimonialGergelyQuote,
    name: messages.testimonialGergelyName,
    role: messages.testimonialGergelyRole,
  },
  {
    quote: messages.testimonialRekaQuote,
    name: messages.testimonialRekaName,
    role: messages.testimonialRekaRole,
  },
] as const;

/** SPEC §1: three hard-coded cards; the arrows are disabled at either end. */
export function Testimonials() {
  const [index, setIndex] = useState(0);
  const current = testimonials[index] ?? testimonials[0];
  return (
    <section className="testimonials" aria-labelledby="testimonials-title">
      <h2 id="testimonials-title">{messages.testimonialsTitle}</h2>
      <div className="carousel">
        <button
          type="button"
          className="arrow"
          aria-label={messages.testimonialsPrevious}
          disabled={index === 0}
          onClick={() => setIndex((i) => i - 1)}
        >
          ‹
        </button>
        <figure className="card testimonial" aria-live="polite">
          <blockquote>{messages.testimonialQuote(current.quote)}</blockquote>
          <figcaption>
            <strong>{current.name}</strong> – {current.role}
          </figcaption>
          <p className="muted">{messages.testimonialPosition(index + 1, testimonials.length)}</p>
        </figure>
        <button
          type="button"
          className="arrow"
          aria-label={messages.testimonialsNext}
          disabled={index === testimonials.length - 1}
          onClick={() => setIndex((i) => i + 1)}
        >
          ›
        </button>
      </div>
    </section>
  );
}
