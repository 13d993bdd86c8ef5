import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { DnsResolver } from "./dns.server";
import { createSafeNetwork, type Dialer, netDialer, RefusedConnection } from "./network.server";
import { DEFAULT_SETTINGS, type DomainCheckSettings } from "./settings";

/** A resolver answering from a map, counting the questions. */
function fakeResolver(zone: Record<string, { a?: string[]; aaaa?: string[] }>) {
  const asked: string[] = [];
  const answer = (name: string, list: string[] | undefined) => {
    if (!(name in zone)) return Promise.reject(Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" }));
    return list?.length
      ? Promise.resolve(list)
      : Promise.reject(Object.assign(new Error("ENODATA"), { code: "ENODATA" }));
  };
  const resolver: DnsResolver = {
    resolve4: (name) => {
      asked.push(`A ${name}`);
      return answer(name, zone[name]?.a);
    },
    resolve6: (name) => {
      asked.push(`AAAA ${name}`);
      return answer(name, zone[name]?.aaaa);
    },
    resolveMx: () => Promise.resolve([]),
    resolveTxt: () => Promise.resolve([]),
  };
  return { resolver, asked };
}

/** Dials loopback only, and records every dial: a test must never reach another address. */
function guardedDialer() {
  const dials: { address: string; port: number }[] = [];
  const dial: Dialer = (target) => {
    dials.push({ address: target.address, port: target.port });
    if (!target.address.startsWith("127.")) throw new Error(`the test dialled ${target.address}`);
    return netDialer(target);
  };
  return { dial, dials };
}

const ZONE = {
  "loopback.example": { a: ["127.0.0.1"] },
  "private.example": { a: ["10.0.0.1"] },
  "metadata.example": { a: ["169.254.169.254"] },
  "v6-loopback.example": { aaaa: ["::1"] },
  "cgnat.example": { a: ["100.64.0.1"] },
  "aws-v6.example": { aaaa: ["fd00:ec2::254"] },
  "mixed.example": { a: ["93.184.215.14", "10.0.0.1"] },
  "public.example": { a: ["93.184.215.14"] },
  "nothing.example": {},
};

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function listen(onConnection: (socket: net.Socket) => void = () => {}): Promise<number> {
  const server = net.createServer(onConnection);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

function network(settings: Partial<DomainCheckSettings> = {}) {
  const { resolver, asked } = fakeResolver(ZONE);
  const { dial, dials } = guardedDialer();
  const safe = createSafeNetwork({
    settings: { ...DEFAULT_SETTINGS, ...settings },
    resolver,
    dial,
    nodeEnv: "test",
  });
  return { safe, asked, dials };
}

const signal = () => AbortSignal.timeout(10_000);

describe("the safe connection (issue 39, item 7)", () => {
  it.each([
    ["loopback.example", "127.0.0.1", /loopback/],
    ["private.example", "10.0.0.1", /private network/],
    ["metadata.example", "169.254.169.254", /cloud metadata/],
    ["v6-loopback.example", "::1", /loopback/],
    ["cgnat.example", "100.64.0.1", /carrier-grade NAT/],
    ["aws-v6.example", "fd00:ec2::254", /cloud metadata/],
    ["mixed.example", "10.0.0.1", /private network/],
  ])("refuses %s (resolving to %s) and never dials", async (name, address, words) => {
    const { safe, dials } = network();
    const resolution = await safe.resolve(name, signal());
    expect(resolution).toMatchObject({ ok: false, kind: "refused", refused: { address } });
    if (!resolution.ok) expect(resolution.reason).toMatch(words);
    await expect(
      safe.httpsGet(`https://${name}/x`, { accept: "*/*", maxBytes: 10, signal: signal() }),
    ).rejects.toThrow(RefusedConnection);
    expect(dials).toEqual([]);
  });

  it("refuses every port but 443 and 25, an IP literal and plain http, before any dial", async () => {
    const { safe, dials } = network();
    const target = { ok: true as const, name: "public.example", addresses: ["93.184.215.14"] };
    for (const port of [80, 8443, 22, 5432, 6379]) {
      await expect(safe.withConnection(target, port, signal(), async () => "x")).rejects.toThrow(
        `port ${port} is not one the checker uses (only 443 and 25)`,
      );
    }
    const get = (url: string) => safe.httpsGet(url, { accept: "*/*", maxBytes: 10, signal: signal() });
    await expect(get("https://public.example:8443/")).rejects.toThrow(/port 8443/);
    await expect(get("https://93.184.215.14/")).rejects.toThrow(/names an IP address/);
    await expect(get("http://public.example/")).rejects.toThrow(/not an https:\/\/ address/);
    expect(dials).toEqual([]);
  });

  it("says when a name has no address", async () => {
    const { safe } = network();
    expect(await safe.resolve("nothing.example", signal())).toMatchObject({ ok: false, kind: "no-address" });
    expect(await safe.resolve("unknown.example", signal())).toMatchObject({ ok: false, kind: "no-address" });
  });

  it("with the tests' setting, reaches loopback on the overridden port, and still refuses the rest", async () => {
    const port = await listen((socket) => socket.end("hello"));
    const { safe, dials } = network({ allowLoopback: true, portOverrides: { 443: port } });
    const target = await safe.resolve("loopback.example", signal());
    if (!target.ok) throw new Error(target.reason);
    const greeting = await safe.withConnection(
      target,
      443,
      signal(),
      (socket) => new Promise<string>((resolve) => socket.once("data", (d) => resolve(String(d)))),
    );
    expect(greeting).toBe("hello");
    expect(dials).toEqual([{ address: "127.0.0.1", port }]);
    for (const name of [
      "private.example",
      "metadata.example",
      "cgnat.example",
      "aws-v6.example",
      "mixed.example",
    ]) {
      expect(await safe.resolve(name, signal())).toMatchObject({ ok: false, kind: "refused" });
    }
    expect(dials).toHaveLength(1);
  });

  it("resolves once and tries a failed connection once more, to the address resolved", async () => {
    const closed = await listen();
    servers.pop()!.close();
    const { safe, asked, dials } = network({ allowLoopback: true, portOverrides: { 25: closed } });
    const target = await safe.resolve("loopback.example", signal());
    if (!target.ok) throw new Error(target.reason);
    await expect(safe.withConnection(target, 25, signal(), async () => "never")).rejects.toMatchObject({
      code: "ECONNREFUSED",
    });
    expect(dials).toEqual([
      { address: "127.0.0.1", port: closed },
      { address: "127.0.0.1", port: closed },
    ]);
    expect(asked).toEqual(["A loopback.example", "AAAA loopback.example"]);
  });

  it("gives each connection its time limit, and the caller's signal cuts everything", async () => {
    const silent = await listen();
    const limits = { ...DEFAULT_SETTINGS.limits, connectionMs: 150 };
    const { safe, dials } = network({ allowLoopback: true, portOverrides: { 443: silent }, limits });
    const target = { ok: true as const, name: "loopback.example", addresses: ["127.0.0.1"] };
    // The server never says anything: only the time limit ends the wait.
    const waitForData = (_socket: net.Socket) => new Promise<string>(() => {});
    const started = Date.now();
    await expect(safe.withConnection(target, 443, signal(), waitForData)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(dials).toHaveLength(2);
    const aborted = new AbortController();
    aborted.abort();
    await expect(safe.withConnection(target, 443, aborted.signal, waitForData)).rejects.toThrow();
    expect(dials).toHaveLength(2);
  });

  it("will not be made in production with the tests' settings", () => {
    const { resolver } = fakeResolver({});
    for (const settings of [{ allowLoopback: true }, { allowLoopback: true, portOverrides: { 443: 8443 } }]) {
      expect(() =>
        createSafeNetwork({
          settings: { ...DEFAULT_SETTINGS, ...settings },
          resolver,
          nodeEnv: "production",
        }),
      ).toThrow(/for tests only/);
    }
    expect(() =>
      createSafeNetwork({ settings: DEFAULT_SETTINGS, resolver, nodeEnv: "production" }),
    ).not.toThrow();
  });
});
