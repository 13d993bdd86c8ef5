import { useEffect, useState } from "react";
import { Icon } from "~/ui/icon";
import { useHydrated } from "~/ui/use-hydrated";
import { CAROUSEL_INTERVAL_MS, TESTIMONIALS, wrapIndex } from "./testimonials";

const STARS = [1, 2, 3, 4, 5];

function usePrefersReducedMotion(): boolean {
  const [reduce, setReduce] = useState(false);
  useEffect(() => {
    const query = window.matchMedia("(prefers-reduced-motion: reduce)");
    setReduce(query.matches);
    const update = () => setReduce(query.matches);
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return reduce;
}

/**
 * Five testimonials, one at a time: auto-advances every 5 s and wraps around; previous/next buttons
 * and dots; pauses while hovered or focused; no auto-advance when the visitor prefers reduced motion.
 * All slides share one grid cell, so the height is the tallest slide's and nothing shifts.
 */
export function TestimonialCarousel() {
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const reduceMotion = usePrefersReducedMotion();
  // Tells tests (and styles) the rotation is live, i.e. the carousel has hydrated.
  const ready = useHydrated();
  const rotating = !hovered && !focused && !reduceMotion;
  const count = TESTIMONIALS.length;

  // Restarts on every change of slide, so a manual move also gets a full 5 s.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `index` restarts the timer on every slide change.
  useEffect(() => {
    if (!rotating) return;
    const timer = window.setTimeout(() => setIndex((i) => wrapIndex(i, 1, count)), CAROUSEL_INTERVAL_MS);
    return () => window.clearTimeout(timer);
  }, [rotating, index, count]);

  return (
    <section
      data-ready={ready}
      aria-roledescription="carousel"
      aria-label="Client testimonials"
      className="relative mx-auto max-w-3xl"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="grid" aria-live={rotating ? "off" : "polite"}>
        {TESTIMONIALS.map((t, i) => {
          const active = i === index;
          return (
            <figure
              key={t.name}
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${count}`}
              aria-hidden={!active}
              inert={!active}
              data-active={active}
              className={`[grid-area:1/1] rounded-2xl border border-slate-200 bg-white p-8 shadow-sm transition-opacity duration-500 motion-reduce:transition-none ${
                active ? "opacity-100" : "invisible opacity-0"
              }`}
            >
              <p className="flex gap-1 text-amber-500" role="img" aria-label={`Rated ${t.rating} out of 5`}>
                {STARS.slice(0, t.rating).map((s) => (
                  <Icon name="star" key={s} className="size-5 fill-current" />
                ))}
              </p>
              <blockquote className="mt-4 text-lg text-slate-800">“{t.text}”</blockquote>
              <figcaption className="mt-6 flex items-center gap-3">
                <span
                  aria-hidden="true"
                  className="grid size-12 place-items-center rounded-full bg-brand-100 font-bold text-brand-800"
                >
                  {t.avatar}
                </span>
                <span>
                  <span className="block font-semibold">{t.name}</span>
                  <span className="block text-sm text-slate-600">
                    {t.position}, {t.company}
                  </span>
                </span>
              </figcaption>
            </figure>
          );
        })}
      </div>
      <div className="mt-6 flex items-center justify-center gap-4">
        <button
          type="button"
          onClick={() => setIndex((i) => wrapIndex(i, -1, count))}
          className="rounded-full border border-slate-300 p-2 hover:bg-slate-50"
        >
          <Icon name="chevron-left" className="size-5" />
          <span className="sr-only">Previous testimonial</span>
        </button>
        <ul className="flex gap-1">
          {TESTIMONIALS.map((t, i) => (
            <li key={t.name}>
              <button
                type="button"
                aria-current={i === index ? "true" : undefined}
                onClick={() => setIndex(i)}
                className="grid size-6 place-items-center"
              >
                <span
                  aria-hidden="true"
                  className={`size-2.5 rounded-full ${i === index ? "bg-brand-600" : "bg-slate-300"}`}
                />
                <span className="sr-only">Show testimonial {i + 1}</span>
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          onClick={() => setIndex((i) => wrapIndex(i, 1, count))}
          className="rounded-full border border-slate-300 p-2 hover:bg-slate-50"
        >
          <Icon name="chevron-right" className="size-5" />
          <span className="sr-only">Next testimonial</span>
        </button>
      </div>
    </section>
  );
}
