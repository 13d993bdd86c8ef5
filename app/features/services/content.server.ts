/**
 * The words of the eight service pages (public-site.md §2 "Service pages"): each page's own sections,
 * process, FAQ and closing call to action. Server-only: each page's loader sends its own copy, with the
 * prices filled in from the catalogue (`{price.<package>}`, `{addon.<addon>}`); no price is written here.
 */
import type { ServiceSlug } from "~/features/catalogue/catalogue";
import type { Item, ServicePageContent } from "./page-content";

const step = (title: string, text: string): Item => ({ title, text });

export const SERVICE_CONTENT: Record<ServiceSlug, ServicePageContent> = {
  "email-migration": {
    description:
      "Email migration to Google Workspace, Microsoft 365 or any IMAP host: every mailbox, folder, contact and calendar, zero downtime, {price.basic} per mailbox.",
    tagline: "Every message, folder, contact and calendar moved, with zero downtime.",
    sections: [
      {
        id: "types",
        title: "Migration Types",
        intro: "We move mail between all the common platforms.",
        items: [
          {
            title: "Google Workspace to Microsoft 365",
            text: "Mail, calendars and contacts, with folder structure kept.",
          },
          {
            title: "Microsoft 365 to Google Workspace",
            text: "Folders become labels; shared calendars are recreated.",
          },
          { title: "IMAP to Google Workspace", text: "From any hosting provider's mail server to Gmail." },
          { title: "IMAP to Microsoft 365", text: "From cPanel, Plesk or any IMAP host to Exchange Online." },
          { title: "Exchange to Microsoft 365", text: "On-premises Exchange mailboxes to the cloud." },
          { title: "Tenant to Tenant", text: "Between two Microsoft 365 or two Google Workspace tenants." },
          { title: "Hosting to Hosting", text: "Between two hosting providers' IMAP servers." },
          {
            title: "PST and Archive Import",
            text: "Old PST files and archives imported into the new mailboxes.",
          },
        ],
      },
      {
        id: "benefits",
        title: "Why Migrate With Us",
        items: [
          {
            title: "Zero downtime",
            text: "Mail keeps flowing during the whole move, thanks to a two-pass copy.",
          },
          { title: "Nothing lost", text: "A verification report compares item counts per folder." },
          {
            title: "Fast delivery",
            text: "Up to 10 accounts in 24-48 hours; larger moves in 3-5 business days.",
          },
        ],
      },
    ],
    process: {
      title: "Our 5-Step Migration Process",
      steps: [
        step("Assessment", "We inventory mailboxes, sizes, aliases and forwarding rules."),
        step("Preparation", "Users and domains are set up on the destination, MX untouched."),
        step("Migration", "A bulk copy runs while your team keeps working."),
        step("Cutover", "MX records switch and a delta pass copies the latest mail."),
        step("Verification", "Item counts are compared and devices are reconnected."),
      ],
    },
    showPricing: true,
    pricingNote: "Priced per mailbox; choose the number of mailboxes when you order.",
    faq: [
      {
        question: "What credentials do you need?",
        answer:
          "Admin access (or app passwords) for the old system, admin access to the new tenant, and access to your DNS. Change them once the migration is done.",
      },
      {
        question: "How long does a migration take?",
        answer: "Basic migrations of up to 10 accounts take 24-48 hours; larger ones take 3-5 business days.",
      },
      {
        question: "Will there be downtime?",
        answer:
          "No. Mail keeps arriving throughout; the cutover is a DNS change followed by a final delta copy.",
      },
      {
        question: "Which platforms do you support?",
        answer:
          "Google Workspace, Microsoft 365, Exchange, and any IMAP server, including cPanel and Plesk mail, plus PST imports.",
      },
      {
        question: "What do I need to prepare?",
        answer:
          "A list of the mailboxes to move, licences on the destination, and a convenient cutover time. We guide you through the rest.",
      },
    ],
    closing: {
      title: "Ready to move your email?",
      text: "Get a free quote and a migration plan within 24 hours.",
    },
  },
  "email-deliverability": {
    description:
      "SPF, DKIM and DMARC set up and verified so your email reaches the inbox and your domain cannot be spoofed. {price.basic} one-time, includes 30-day support.",
    tagline: "Reach the inbox, stop spoofing, and stay off blacklists.",
    sections: [
      {
        id: "covered",
        title: "What We Set Up",
        items: [
          { title: "SPF", text: "One correct record listing every service that sends as your domain." },
          { title: "DKIM", text: "Signing enabled for your mailbox provider and your sending tools." },
          { title: "DMARC", text: "A policy and reports, tightened step by step to reject." },
          { title: "Blacklist check", text: "Your domain and IPs checked against the major blacklists." },
        ],
      },
      {
        id: "benefits",
        title: "Benefits",
        items: [
          { title: "Inbox, not spam", text: "Authenticated mail is trusted by Gmail, Outlook and Yahoo." },
          { title: "No spoofing", text: "Criminals can no longer send convincing mail as you." },
          { title: "30-day support", text: "We watch your DMARC reports while they settle." },
        ],
      },
    ],
    process: {
      title: "Our 5-Step Process",
      steps: [
        step("DNS Audit", "We review MX, SPF, DKIM and DMARC records and your senders."),
        step("SPF Setup", "One valid SPF record within the 10-lookup limit."),
        step("DKIM Signing", "DKIM keys published and signing enabled for each sender."),
        step("DMARC Policy", "DMARC published in monitoring mode with reports."),
        step("Monitoring", "Reports reviewed and the policy tightened once clean."),
      ],
    },
    showPricing: true,
    pricingNote: "One-time setup, including 30 days of support.",
    faq: [
      {
        question: "Why are my emails going to spam?",
        answer:
          "Usually missing or broken SPF, DKIM or DMARC, or a blacklisted server. We check all of them.",
      },
      {
        question: "Will this affect my current email?",
        answer: "No. Records are added in monitoring mode first, so legitimate mail is never blocked.",
      },
      {
        question: "How long does it take?",
        answer: "Setup is delivered in 24-48h; DNS changes spread within hours.",
      },
      {
        question: "Do you need access to my DNS?",
        answer: "Yes, or we send you the exact records to add yourself.",
      },
      {
        question: "What happens after 30 days?",
        answer: "Your records keep working. Further help is available per incident.",
      },
    ],
    closing: { title: "Make your email trusted", text: "Get a free deliverability check and quote." },
  },
  "ssl-setup": {
    description:
      "SSL and HTTPS setup: free, single-domain, multi-domain and wildcard certificates installed in 2-4 hours with 5-10 minutes of downtime, renewals automated.",
    tagline: "Certificates installed, HTTPS enforced, renewals automated.",
    sections: [
      {
        id: "types",
        title: "Certificate Types",
        items: [
          {
            title: "DV (Domain Validated)",
            text: "Proves control of the domain. Issued in minutes; right for most sites.",
          },
          {
            title: "OV (Organization Validated)",
            text: "Also verifies your organisation; shows your company in the details.",
          },
          {
            title: "EV (Extended Validation)",
            text: "The most thorough checks, for policies and clients that demand them.",
          },
        ],
      },
      {
        id: "benefits",
        title: "Benefits",
        items: [
          { title: "No browser warnings", text: "Visitors see the padlock, not 'Not secure'." },
          { title: "Better search ranking", text: "Search engines favour HTTPS sites." },
          { title: "Protected data", text: "Forms, logins and payments are encrypted." },
          { title: "Minimal downtime", text: "2-4 hours of work, 5-10 minutes of downtime." },
        ],
      },
      {
        id: "procurement",
        title: "Certificate Procurement Service",
        intro:
          "Need a paid certificate? We buy it for you from a trusted authority, handle validation and install it. +{addon.procurement} per certificate.",
        style: "list",
        items: [
          { title: "Vendor choice", text: "We pick the right certificate authority and product." },
          { title: "Validation", text: "We handle the domain and organisation validation steps." },
          { title: "Installation", text: "The certificate is installed with its full chain." },
        ],
      },
    ],
    process: {
      title: "Our Process",
      steps: [
        step("Check", "We review your server, domains and current certificates."),
        step("Issue", "The certificate is issued or procured and validated."),
        step("Install", "Installed with the full chain, HTTP redirected to HTTPS."),
        step("Automate", "Renewal automated and tested, reminders set."),
      ],
    },
    showPricing: true,
    pricingNote: "Certificate procurement: +{addon.procurement} each.",
    faq: [
      {
        question: "How long does installation take?",
        answer: "2-4 hours, with 5-10 minutes of downtime at most.",
      },
      {
        question: "Is a free certificate secure enough?",
        answer: "Yes, free DV certificates use the same encryption; paid ones add validation and warranties.",
      },
      {
        question: "What about renewals?",
        answer: "We automate renewals wherever the server allows it and set reminders otherwise.",
      },
      {
        question: "Which certificate do I need?",
        answer: "One site: single domain. Several names: multi-domain. Many subdomains: wildcard.",
      },
    ],
    closing: { title: "Secure your site today", text: "Get your certificate installed within hours." },
  },
  "cloud-management": {
    description:
      "Google Workspace and Microsoft 365 management: setup, users, security and everyday fixes. {price.setup} one-time setup, {price.incident} per incident.",
    tagline: "Your cloud suite set up, secured and looked after.",
    sections: [
      {
        id: "platforms",
        title: "Supported Platforms",
        items: [
          { title: "Google Workspace", text: "Gmail, Drive, Calendar, Meet and the admin console." },
          { title: "Microsoft 365", text: "Exchange Online, Teams, SharePoint, OneDrive and Entra ID." },
        ],
      },
      {
        id: "services",
        title: "Management Services",
        items: [
          { title: "User management", text: "Accounts, groups, shared mailboxes and offboarding." },
          { title: "Security", text: "MFA, admin roles, sharing policies and alerts." },
          { title: "Licences", text: "Licence review and cost advice." },
          { title: "Troubleshooting", text: "Sync, sign-in, mail-flow and permission problems fixed." },
        ],
      },
    ],
    process: {
      title: "Our 3-Step Process",
      steps: [
        step("Review", "We review your tenant, users and security settings."),
        step("Configure", "Users, groups and policies are set up or corrected."),
        step("Support", "Ongoing help per incident, with 7 days of follow-up."),
      ],
    },
    showPricing: true,
    pricingNote: "Each incident includes 7 days of follow-up.",
    faq: [
      { question: "Do you work with both suites?", answer: "Yes, Google Workspace and Microsoft 365." },
      {
        question: "What counts as an incident?",
        answer: "One management task or problem, such as a sign-in issue or a new shared mailbox.",
      },
      {
        question: "How fast do you respond?",
        answer: "Within 24 hours; typical incidents are resolved in 2-4 hours.",
      },
      {
        question: "Can you help choose between the suites?",
        answer: "Yes, and we can migrate you from one to the other.",
      },
    ],
    closing: { title: "Let us run your cloud suite", text: "Get a free review of your tenant." },
  },
  "data-migration": {
    description:
      "Cloud data migration for Teams, SharePoint, OneDrive and Google Drive with permissions and structure intact. {price.basic} per user.",
    tagline: "Files, permissions and Teams moved intact, around your working hours.",
    sections: [
      {
        id: "types",
        title: "Migration Types",
        items: [
          { title: "Microsoft Teams", text: "Teams, channels and their files moved between tenants." },
          { title: "SharePoint", text: "Sites, libraries and permissions recreated deliberately." },
          {
            title: "OneDrive / Google Drive",
            text: "Personal drives moved between platforms, with conversion.",
          },
        ],
      },
    ],
    process: {
      title: "Our 6-Step Process",
      steps: [
        step("Assessment", "We measure data, owners, sharing and problem files."),
        step("Planning", "Every source is mapped to its destination and scheduled."),
        step("Pre-Migration", "Destinations are created and a pilot runs."),
        step("Migration", "Bulk copy in waves, then incremental passes."),
        step("Validation", "Counts, samples and permissions checked per user."),
        step("Go-Live", "Final pass, sources read-only, users pointed to the new locations."),
      ],
    },
    showPricing: true,
    pricingNote: "Priced per user; choose the number of users when you order.",
    faq: [
      {
        question: "Are permissions kept?",
        answer: "Yes, permissions are mapped and verified during validation.",
      },
      {
        question: "Will people be interrupted?",
        answer: "No; bulk copies run while people work, and go-live is scheduled with you.",
      },
      {
        question: "What about Google Docs?",
        answer: "They are converted to Office formats; we check complex files afterwards.",
      },
      {
        question: "How long does it take?",
        answer: "Small teams in 24-48h; larger projects are scheduled over a few days.",
      },
    ],
    closing: { title: "Plan your data migration", text: "Get a free assessment and quote." },
  },
  "hosting-support": {
    description:
      "cPanel and Plesk support: setup, fixes, email and DNS problems, certificates, backups and emergency support with a 15-minute response.",
    tagline: "Your control panel, servers and sites kept healthy.",
    sections: [
      {
        id: "panels",
        title: "Supported Control Panels",
        items: [
          { title: "cPanel / WHM", text: "Accounts, email, DNS, PHP, databases and backups." },
          { title: "Plesk", text: "Linux and Windows servers, WordPress toolkit, Git and Docker." },
        ],
      },
      {
        id: "services",
        title: "Support Services",
        items: [
          { title: "Website issues", text: "Errors, slow sites, PHP versions and database problems." },
          { title: "Email problems", text: "Mail not sending or arriving, quotas and spam filtering." },
          { title: "DNS and SSL", text: "Zone records, certificates and renewals." },
          { title: "Backups and restores", text: "Backups configured and sites restored." },
        ],
      },
    ],
    process: {
      title: "How Support Works",
      steps: [
        step("Report", "Tell us what is wrong through the contact form or WhatsApp."),
        step("Diagnose", "We find the cause, not just the symptom."),
        step("Fix", "The fix is applied and tested, and you get a short report."),
      ],
    },
    // public-site.md §2: hosting's basic, standard and enterprise prices are fetched but not shown.
    showPricing: false,
    panel: {
      title: "Emergency Support",
      text: "Site down or mail stopped? Existing clients get emergency support 24/7.",
      points: [
        "Emergency response in about 15 minutes",
        "Critical issues resolved in 1-2 hours",
        "Available 24/7 for existing clients",
      ],
    },
    faq: [
      {
        question: "Which panels do you support?",
        answer: "cPanel/WHM and Plesk on Linux, and Plesk on Windows.",
      },
      {
        question: "How fast is emergency support?",
        answer: "About 15 minutes to respond, and 1-2 hours to resolve critical issues.",
      },
      {
        question: "Do you need root access?",
        answer: "For server-level work, yes; many fixes need only panel access.",
      },
      {
        question: "Can you move sites between panels?",
        answer: "Yes, including files, databases and mailboxes.",
      },
    ],
    closing: {
      title: "Need help with your hosting?",
      text: "Tell us what is wrong; we respond within 24 hours.",
    },
  },
  "acronis-setup": {
    description:
      "Acronis backup account setup: protection plans, schedules, retention and a tested restore, delivered in 2-4 hours. {price.basic} complete setup.",
    tagline: "Backups configured, scheduled and proven with a test restore.",
    sections: [
      {
        id: "features",
        title: "What You Get",
        items: [
          { title: "Complete protection", text: "Files, mailboxes and whole machines covered by one plan." },
          { title: "Reliable schedules", text: "Backups run automatically, with alerts on failure." },
          { title: "Proven restores", text: "A test restore proves your data comes back." },
        ],
      },
      {
        id: "setup",
        title: "Setup Includes",
        style: "list",
        items: [
          { title: "Account creation", text: "Your Acronis account created and secured." },
          { title: "Agent installation", text: "Agents installed on your devices and servers." },
          { title: "Protection plans", text: "Plans for files, systems and mailboxes." },
          { title: "Schedules and retention", text: "Frequency and retention set to your needs." },
          { title: "Alerts", text: "Email alerts for failed or missed backups." },
          { title: "Test restore", text: "A restore test and a short handover guide." },
        ],
      },
    ],
    process: {
      title: "Setup Timeline",
      steps: [
        step("Basic setup", "2-4 hours for a typical small office."),
        step("Enterprise setup", "1-2 business days for larger environments."),
      ],
    },
    showPricing: true,
    faq: [
      {
        question: "How long does setup take?",
        answer: "2-4 hours for basic setups, 1-2 business days for enterprise ones.",
      },
      {
        question: "Do I need an Acronis licence?",
        answer: "Yes; we help you choose the right one if you do not have it yet.",
      },
      {
        question: "Can you back up Microsoft 365 or Google Workspace?",
        answer: "Yes, cloud mailboxes and drives can be protected too.",
      },
      { question: "Will you test the backups?", answer: "Yes, every setup ends with a test restore." },
    ],
    closing: { title: "Protect your data today", text: "Order your backup setup or ask us a question." },
  },
  "per-incident-support": {
    description:
      "Per-incident IT support for Google Workspace, Microsoft 365, SSL certificates and backups: {price.basic} per incident with 7 days of follow-up.",
    tagline: "One problem, one fixed price, solved by an expert.",
    sections: [
      {
        id: "categories",
        title: "Support Categories",
        items: [
          { title: "Google Workspace", text: "Sign-in, Gmail, Drive sharing and admin console issues." },
          { title: "Microsoft 365", text: "Outlook, Teams, OneDrive and licensing problems." },
          { title: "SSL Certificate", text: "Expired certificates, warnings and renewals." },
          { title: "Backup", text: "Failed backups, restores and alerts." },
        ],
      },
      {
        id: "issues",
        title: "Common Issues We Fix",
        style: "list",
        items: [
          { title: "Email not sending or receiving", text: "Mail flow and DNS problems." },
          { title: "Emails going to spam", text: "SPF, DKIM and DMARC problems." },
          { title: "Certificate warnings", text: "Expired or misconfigured certificates." },
          { title: "Sync problems", text: "OneDrive, Drive and Outlook sync errors." },
          { title: "Account lockouts", text: "MFA and sign-in problems." },
          { title: "Failed backups", text: "Backup jobs that stopped running." },
        ],
      },
    ],
    process: {
      title: "Our 5-Step Process",
      steps: [
        step("Assessment", "We understand the problem and its impact."),
        step("Planning", "We choose the safest way to fix it."),
        step("Implementation", "The fix is applied."),
        step("Verification", "We confirm everything works."),
        step("Documentation", "You get a short note of what was done."),
      ],
    },
    showPricing: true,
    pricingNote:
      "Each incident includes 7 days of follow-up. Typical resolution 2-4 hours; complex issues up to 24 hours.",
    faq: [
      {
        question: "What is an incident?",
        answer: "One problem with one cause, such as a mailbox that stopped receiving mail.",
      },
      {
        question: "How fast will it be fixed?",
        answer: "Typically within 2-4 hours; complex issues up to 24 hours.",
      },
      { question: "Is there follow-up?", answer: "Yes, each incident includes 7 days of follow-up." },
      {
        question: "What if it cannot be fixed?",
        answer: "We explain why, and what it would take, before any further work.",
      },
      {
        question: "How do I start?",
        answer: "Buy an incident and describe the problem; we respond within 24 hours.",
      },
    ],
    closing: { title: "Have a problem right now?", text: "Buy an incident or contact us." },
  },
};
