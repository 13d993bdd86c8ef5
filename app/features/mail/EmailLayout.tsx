/**
 * The branded frame of every email: table layout and inline styles only, since mail clients ignore
 * style sheets and the /dev/mail viewer's CSP allows no <style> blocks.
 */
import type { ReactNode } from "react";
import type { BusinessIdentity } from "~/features/business/business";

const BRAND = "#1d4ed8";

export function EmailLayout({
  business,
  publicUrl,
  preview,
  children,
}: {
  business: BusinessIdentity;
  publicUrl: string;
  /** The line mail clients show beside the subject. */
  preview: string;
  children: ReactNode;
}) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
      </head>
      <body style={{ margin: 0, padding: 0, backgroundColor: "#f1f5f9", fontFamily: "Arial, sans-serif" }}>
        <div style={{ display: "none", maxHeight: 0, overflow: "hidden" }}>{preview}</div>
        <table role="presentation" width="100%" cellPadding={0} cellSpacing={0}>
          <tbody>
            <tr>
              <td align="center" style={{ padding: "24px 12px" }}>
                <table
                  role="presentation"
                  width="600"
                  cellPadding={0}
                  cellSpacing={0}
                  style={{
                    maxWidth: "600px",
                    width: "100%",
                    backgroundColor: "#ffffff",
                    borderRadius: "8px",
                  }}
                >
                  <tbody>
                    <tr>
                      <td
                        style={{ backgroundColor: BRAND, padding: "20px 24px", borderRadius: "8px 8px 0 0" }}
                      >
                        <a
                          href={publicUrl}
                          style={{
                            color: "#ffffff",
                            fontSize: "20px",
                            fontWeight: "bold",
                            textDecoration: "none",
                          }}
                        >
                          {business.name}
                        </a>
                      </td>
                    </tr>
                    <tr>
                      <td style={{ padding: "24px", color: "#0f172a", fontSize: "15px", lineHeight: "1.6" }}>
                        {children}
                      </td>
                    </tr>
                    <tr>
                      <td
                        style={{
                          padding: "16px 24px",
                          borderTop: "1px solid #e2e8f0",
                          color: "#64748b",
                          fontSize: "12px",
                          lineHeight: "1.5",
                        }}
                      >
                        {business.legalName} · {business.address}
                        <br />
                        <a href={`mailto:${business.email}`} style={{ color: BRAND }}>
                          {business.email}
                        </a>{" "}
                        · {business.phone}
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

export function EmailButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a
      href={href}
      style={{
        display: "inline-block",
        backgroundColor: BRAND,
        color: "#ffffff",
        padding: "10px 18px",
        borderRadius: "6px",
        textDecoration: "none",
        fontWeight: "bold",
      }}
    >
      {children}
    </a>
  );
}

/** The text footer matching EmailLayout's. */
export function textFooter(business: BusinessIdentity, publicUrl: string): string {
  return `--\n${business.name} · ${publicUrl}\n${business.address}\n${business.email} · ${business.phone}\n`;
}
