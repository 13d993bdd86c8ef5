/** The five testimonials of the home page's carousel, and the carousel's timing (§2, §9). */
export interface Testimonial {
  name: string;
  position: string;
  company: string;
  /** Initials shown in the avatar circle (no external images under the CSP). */
  avatar: string;
  rating: 5;
  text: string;
}

export const CAROUSEL_INTERVAL_MS = 5000;

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    name: "Sarah Mitchell",
    position: "Operations Manager",
    company: "Brightline Dental",
    avatar: "SM",
    rating: 5,
    text: "Our 25 mailboxes moved to Microsoft 365 over a weekend. On Monday everything was simply there, calendars included.",
  },
  {
    name: "David Chen",
    position: "Founder",
    company: "Northwind Design Studio",
    avatar: "DC",
    rating: 5,
    text: "Our invoices kept landing in spam. After the SPF, DKIM and DMARC setup, deliverability went back to normal within days.",
  },
  {
    name: "Priya Raman",
    position: "IT Lead",
    company: "Harbor Logistics",
    avatar: "PR",
    rating: 5,
    text: "The SharePoint and OneDrive migration was planned around our shifts, and the validation report gave us real confidence.",
  },
  {
    name: "Marcus Okafor",
    position: "Owner",
    company: "Okafor Legal",
    avatar: "MO",
    rating: 5,
    text: "Our SSL certificate expired on a Friday night. It was replaced within the hour, and renewals are now automatic.",
  },
  {
    name: "Elena García",
    position: "Office Manager",
    company: "Verde Architects",
    avatar: "EG",
    rating: 5,
    text: "Clear prices, quick answers and no jargon. Our Google Workspace finally works the way we always wanted.",
  },
];

/** The slide after (+1) or before (-1) the current one, wrapping around. */
export function wrapIndex(index: number, step: number, length: number): number {
  return (((index + step) % length) + length) % length;
}
