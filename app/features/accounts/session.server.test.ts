import type { AppLoadContext } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { forgetSignedIn, getSignedIn } from "./session.server";

function fakeContext() {
  // As better-auth answers with returnHeaders: the session and the cookies it would set.
  const getSession = vi.fn(async () => ({
    headers: new Headers(),
    response: {
      session: { id: "s1" },
      user: { id: "u1", name: "Ada", email: "ada@example.com", emailVerified: true, role: "client" },
    },
  }));
  const context = { runtime: { auth: { api: { getSession } } } } as unknown as AppLoadContext;
  return { context, getSession };
}

const request = (cookie = "portico.session_token=abc") =>
  new Request("http://127.0.0.1/", { headers: { cookie } });

describe("getSignedIn", () => {
  it("looks the session up once per request, however many loaders ask", async () => {
    const { context, getSession } = fakeContext();
    const answers = await Promise.all([
      getSignedIn(request(), context),
      getSignedIn(request(), context),
      getSignedIn(request(), context),
    ]);
    expect(getSession).toHaveBeenCalledTimes(1);
    expect(answers.every((a) => a?.user.id === "u1")).toBe(true);
  });

  it("asks again for another request, another cookie, or after being told to forget", async () => {
    const a = fakeContext();
    const b = fakeContext();
    await getSignedIn(request(), a.context);
    await getSignedIn(request(), b.context);
    expect(b.getSession).toHaveBeenCalledTimes(1);
    await getSignedIn(request("portico.session_token=other"), a.context);
    expect(a.getSession).toHaveBeenCalledTimes(2);
    forgetSignedIn(a.context);
    await getSignedIn(request(), a.context);
    expect(a.getSession).toHaveBeenCalledTimes(3);
  });

  it("does not remember a failed lookup", async () => {
    const { context, getSession } = fakeContext();
    getSession.mockRejectedValueOnce(new Error("database down"));
    await expect(getSignedIn(request(), context)).rejects.toThrow("database down");
    await expect(getSignedIn(request(), context)).resolves.toMatchObject({ sessionId: "s1" });
    expect(getSession).toHaveBeenCalledTimes(2);
  });
});
