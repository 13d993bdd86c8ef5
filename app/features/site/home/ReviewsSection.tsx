import { Container } from "~/ui/container";
import { TestimonialCarousel } from "./TestimonialCarousel";

const STATS = [
  { value: "50+", label: "Happy Clients" },
  { value: "4.9/5", label: "Average Rating" },
  { value: "100%", label: "Success Rate" },
  { value: "24h", label: "Response Time" },
];

export function ReviewsSection() {
  return (
    <section id="reviews" aria-labelledby="reviews-heading" className="py-20">
      <Container>
        <h2 id="reviews-heading" className="text-center text-3xl font-bold tracking-tight">
          What Clients Say
        </h2>
        <div className="mt-10">
          <TestimonialCarousel />
        </div>
        <dl className="mt-14 grid grid-cols-2 gap-6 rounded-2xl bg-brand-700 p-8 text-center text-white lg:grid-cols-4">
          {STATS.map((s) => (
            <div key={s.label} className="flex flex-col-reverse">
              <dt className="mt-1 text-sm text-brand-50">{s.label}</dt>
              <dd className="text-3xl font-bold">{s.value}</dd>
            </div>
          ))}
        </dl>
      </Container>
    </section>
  );
}
