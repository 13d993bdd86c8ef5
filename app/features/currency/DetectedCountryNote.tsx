/** "A note showing the detected country." (client-portal.md, Services) */
import { useCurrency } from "./CurrencyContext";

export function DetectedCountryNote({ className }: { className?: string }) {
  const { location } = useCurrency();
  return (
    <p
      className={["text-sm text-slate-600", className].filter(Boolean).join(" ")}
      data-country={location.country_code}
    >
      Detected country: <span className="font-medium text-slate-800">{location.country_name}</span> (
      {location.currency})
    </p>
  );
}
