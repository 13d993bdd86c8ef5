/**
 * The service catalogue as first seeded: the eight services with the USD prices of the spec
 * (public-site.md and client-portal.md, section 9). Ids are fixed so seeding is idempotent and
 * links by id keep working across installs.
 */
import type { NewService } from "~/db/schema";

export const SEED_SERVICES: NewService[] = [
  {
    id: "283d2638-5eb0-4899-96fe-7e0c3da52951",
    slug: "email-migration",
    name: "Email Migration & Setup",
    description:
      "Move every mailbox, folder, contact and calendar to Google Workspace, Microsoft 365 or any IMAP host without losing a message or a day of work.",
    category: "Email",
    pricing: { basic: 4 },
    packageOrder: ["basic"],
    packageNames: { basic: "Per Mailbox" },
    features: {
      basic: [
        "Complete mailbox migration: emails, folders, contacts and calendars",
        "Zero-downtime cutover with planned MX record changes",
        "Post-migration verification report",
        "Email client and mobile device setup guidance",
        "Delivery in 24-48h for up to 10 accounts",
      ],
    },
    quantityLabel: "Number of Mailboxes",
    minQuantity: 1,
    maxQuantity: 1000,
    sortOrder: 1,
  },
  {
    id: "1e578799-73a0-4156-a70a-06dd958ad50f",
    slug: "email-deliverability",
    name: "Domain & Email Security",
    description:
      "SPF, DKIM and DMARC set up and verified so your email reaches the inbox, your domain cannot be spoofed, and blacklists stop being a worry.",
    category: "Security",
    pricing: { basic: 25 },
    packageOrder: ["basic"],
    packageNames: { basic: "Deliverability Setup" },
    features: {
      basic: [
        "SPF, DKIM and DMARC records configured and tested",
        "Blacklist and sender reputation check",
        "DNS audit of MX, SPF and DMARC alignment",
        "DMARC report monitoring guidance",
        "Includes 30 days of support",
      ],
    },
    sortOrder: 2,
  },
  {
    id: "cd43a3d0-bb4c-47f3-9dfe-77e2840f4565",
    slug: "ssl-setup",
    name: "SSL & HTTPS Setup",
    description:
      "Certificates installed, HTTPS enforced and renewals automated, from a free certificate to wildcard and multi-domain ones, with 5-10 minutes of downtime at most.",
    category: "Security",
    pricing: { free: 7, single: 10, multi: 25, wildcard: 55 },
    packageOrder: ["free", "single", "multi", "wildcard"],
    packageNames: {
      free: "Free Certificate Setup",
      single: "Single Domain",
      multi: "Multi-Domain (up to 5 domains)",
      wildcard: "Wildcard",
    },
    addons: { procurement: { name: "Certificate procurement", usd: 5 } },
    features: {
      free: [
        "Free DV certificate installed on your server",
        "HTTP to HTTPS redirect configured",
        "Automatic renewal set up and tested",
        "Mixed-content check of your site",
      ],
      single: [
        "Certificate for one domain installed and verified",
        "HTTP to HTTPS redirect and HSTS configured",
        "Installation in 2-4 hours",
        "Renewal reminders",
      ],
      multi: [
        "One certificate covering up to 5 domains",
        "Installation on every listed host",
        "HTTPS redirects for each domain",
        "Renewal reminders",
      ],
      wildcard: [
        "Wildcard certificate for all subdomains",
        "Installation on your servers and panels",
        "HTTPS redirects and HSTS configured",
        "Renewal reminders",
      ],
    },
    sortOrder: 3,
  },
  {
    id: "9fce91ce-912c-4977-ab14-15dee686214e",
    slug: "cloud-management",
    name: "Cloud Suite Management",
    description:
      "Google Workspace and Microsoft 365 set up, secured and looked after: users, groups, policies, licences and the everyday problems in between.",
    category: "Cloud",
    pricing: { setup: 25, incident: 5 },
    packageOrder: ["setup", "incident"],
    packageNames: { setup: "One-time Setup", incident: "Per Incident" },
    features: {
      setup: [
        "Tenant setup with domain verification",
        "Users, groups and shared mailboxes created",
        "Security baseline: MFA and admin roles",
        "Licence review and cost advice",
      ],
      incident: [
        "One management task or problem solved",
        "Typical resolution in 2-4 hours",
        "7 days of follow-up included",
      ],
    },
    sortOrder: 4,
  },
  {
    id: "735fb258-04e0-45ae-a5a6-b9016cc46f91",
    slug: "data-migration",
    name: "Cloud Data Migration",
    description:
      "Teams, SharePoint, OneDrive and Google Drive content moved with permissions, versions and structure intact, planned around your working hours.",
    category: "Cloud",
    pricing: { basic: 5 },
    packageOrder: ["basic"],
    packageNames: { basic: "Per User" },
    features: {
      basic: [
        "Files, folders and permissions migrated",
        "Teams channels and SharePoint sites included",
        "Validation of every migrated user",
        "Go-live support and a final report",
      ],
    },
    quantityLabel: "Number of Users",
    minQuantity: 1,
    maxQuantity: 500,
    sortOrder: 5,
  },
  {
    id: "d50f2375-dd0f-4e29-8fec-70e9db546988",
    slug: "hosting-support",
    name: "Hosting & Control Panel Support",
    description:
      "cPanel and Plesk problems solved: sites that are down, email that does not flow, DNS that will not propagate, backups that never ran.",
    category: "Hosting",
    pricing: { basic: 15, standard: 25, enterprise: 55 },
    packageOrder: ["basic", "standard", "enterprise"],
    packageNames: { basic: "Basic", standard: "Standard", enterprise: "Enterprise" },
    features: {
      basic: [
        "One cPanel or Plesk issue diagnosed and fixed",
        "DNS and email routing checks",
        "Written summary of the fix",
      ],
      standard: [
        "Up to three related issues",
        "Performance and security review",
        "Backup configuration check",
        "7 days of follow-up",
      ],
      enterprise: [
        "Full server health audit",
        "Hardening of the control panel",
        "Priority emergency response",
        "Monitoring recommendations",
      ],
    },
    sortOrder: 6,
  },
  {
    id: "f9d71e42-a158-4ece-b5f3-5441ea4ad380",
    slug: "acronis-setup",
    name: "Acronis Account Setup",
    description:
      "Acronis Cyber Protect backups configured for your machines and Microsoft 365 or Google Workspace data, with schedules, retention and a tested restore.",
    category: "Backup",
    pricing: { basic: 25 },
    packageOrder: ["basic"],
    packageNames: { basic: "Complete Setup" },
    features: {
      basic: [
        "Acronis account and protection plans configured",
        "Backup schedules and retention rules",
        "Cloud-to-cloud backup for Microsoft 365 or Google Workspace",
        "A test restore to prove it works",
        "Setup in 2-4 hours",
      ],
    },
    sortOrder: 7,
  },
  {
    id: "0bbe9686-786f-42c0-a8d5-6c45c50a4674",
    slug: "per-incident-support",
    name: "Per Incident Support",
    description:
      "One price for one problem: Google Workspace, Microsoft 365, SSL or backup trouble diagnosed and fixed, with 7 days of follow-up.",
    category: "Support",
    pricing: { basic: 20 },
    packageOrder: ["basic"],
    packageNames: { basic: "Per Incident" },
    features: {
      basic: [
        "Remote diagnosis and fix of one incident",
        "Typical resolution in 2-4 hours",
        "7 days of follow-up included",
        "Written notes of what was done",
      ],
    },
    quantityLabel: "Number of Incidents",
    minQuantity: 1,
    maxQuantity: 10,
    sortOrder: 8,
  },
];
