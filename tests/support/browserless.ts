/**
 * A tiny cookie-keeping client for integration tests: posts forms like a browser on the same origin
 * and remembers the cookies the server sets.
 */
export class Session {
  private cookies = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    /** Sent as X-Forwarded-For (the test server trusts the proxy), so each test has its own address. */
    private readonly ip = "203.0.113.1",
    /** Sent as User-Agent when given (fetch's own otherwise). */
    private readonly userAgent?: string,
  ) {}

  private get agent(): Record<string, string> {
    return this.userAgent ? { "user-agent": this.userAgent } : {};
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  cookie(name: string): string | undefined {
    for (const [k, v] of this.cookies) if (k.endsWith(name)) return v;
    return undefined;
  }

  private remember(res: Response): Response {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = /max-age=0\b/i.test(line) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  async get(path: string): Promise<Response> {
    const res = await fetch(new URL(path, this.baseUrl), {
      redirect: "manual",
      headers: { cookie: this.cookieHeader, "x-forwarded-for": this.ip, ...this.agent },
    });
    return this.remember(res);
  }

  /** Posts a form; URLSearchParams for a field sent more than once (ticked checkboxes). */
  async post(path: string, fields: Record<string, string> | URLSearchParams): Promise<Response> {
    const res = await fetch(new URL(path, this.baseUrl), {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams(fields),
      headers: {
        cookie: this.cookieHeader,
        origin: new URL(this.baseUrl).origin,
        "content-type": "application/x-www-form-urlencoded",
        "x-forwarded-for": this.ip,
        ...this.agent,
      },
    });
    return this.remember(res);
  }

  /** Posts a multipart form (files included), as a browser's form with enctype multipart/form-data. */
  async postMultipart(path: string, form: FormData): Promise<Response> {
    const res = await fetch(new URL(path, this.baseUrl), {
      method: "POST",
      redirect: "manual",
      body: form,
      headers: {
        cookie: this.cookieHeader,
        origin: new URL(this.baseUrl).origin,
        "x-forwarded-for": this.ip,
      },
    });
    return this.remember(res);
  }
}

export function location(res: Response): string {
  const value = res.headers.get("location");
  if (!value) throw new Error(`no redirect (status ${res.status})`);
  const url = new URL(value, "http://x");
  return `${url.pathname}${url.search}`;
}

/** Undo the HTML escaping React applies to text, for assertions on messages with quotes. */
export function text(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}
