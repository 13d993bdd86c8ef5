import encodeQR from "qr";
import { describe, expect, it } from "vitest";
import { parseSignInCode, twoFactorSetupCodeSchema, twoFactorSignInSchema } from "./two-factor";
import { base32, otpauthUri, qrPath, totpSetup } from "./two-factor.server";

describe("base32", () => {
  it("encodes as RFC 4648 does, without padding", () => {
    const enc = (s: string) => base32(new TextEncoder().encode(s));
    // RFC 4648 §10 test vectors.
    expect(enc("")).toBe("");
    expect(enc("f")).toBe("MY");
    expect(enc("fo")).toBe("MZXQ");
    expect(enc("foo")).toBe("MZXW6");
    expect(enc("foob")).toBe("MZXW6YQ");
    expect(enc("fooba")).toBe("MZXW6YTB");
    expect(enc("foobar")).toBe("MZXW6YTBOI");
  });
});

describe("otpauthUri and totpSetup", () => {
  it("builds the URI authenticator apps read, with the key in base32", () => {
    const uri = otpauthUri("Portico IT Services", "ada@example.com", "foobar");
    expect(uri).toBe(
      "otpauth://totp/Portico%20IT%20Services:ada%40example.com?secret=MZXW6YTBOI&issuer=Portico+IT+Services&digits=6&period=30",
    );
    expect(totpSetup(uri).secret).toBe("MZXW6YTBOI");
  });
});

describe("qrPath", () => {
  it("draws exactly the dark modules of the QR code, inside a 4-module quiet zone", () => {
    const text = "otpauth://totp/A:b?secret=MZXW6YTBOI";
    const { size, path } = qrPath(text);
    const grid = encodeQR(text, "raw", { ecc: "medium", border: 4 });
    expect(size).toBe(grid.length);
    // Paint the path's runs back onto an empty grid and compare.
    const painted = grid.map((row) => row.map(() => false));
    for (const [, x, y, w] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
      for (let i = 0; i < Number(w); i++) painted[Number(y)]![Number(x) + i] = true;
    }
    expect(painted).toEqual(grid);
    for (let i = 0; i < size; i++) {
      expect(grid[0]![i]).toBe(false);
      expect(grid[i]![0]).toBe(false);
    }
  });
});

describe("the code step's input", () => {
  it("takes six digits as an authenticator code and a backup code with or without its dash", () => {
    expect(parseSignInCode(" 123 456 ")).toEqual({ kind: "totp", code: "123456" });
    expect(parseSignInCode("aB3dE-9xYz0")).toEqual({ kind: "backup", code: "aB3dE-9xYz0" });
    expect(parseSignInCode("aB3dE9xYz0")).toEqual({ kind: "backup", code: "aB3dE-9xYz0" });
    for (const bad of ["", "12345", "1234567", "<script>", "abcde-1234", "' OR 1=1 --", "12345\u0000"]) {
      expect(parseSignInCode(bad), bad).toBeNull();
    }
  });

  it("refuses a malformed code with a message, and reads the trust checkbox", () => {
    const bad = twoFactorSignInSchema.safeParse({ code: "x".repeat(500) });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe(
      "Enter the 6-digit code from your authenticator app, or a backup code.",
    );
    expect(twoFactorSignInSchema.parse({ code: "123456", trustDevice: "on" })).toEqual({
      code: { kind: "totp", code: "123456" },
      trustDevice: true,
    });
    expect(twoFactorSetupCodeSchema.safeParse({ code: "abcdef" }).success).toBe(false);
    expect(twoFactorSetupCodeSchema.parse({ code: "123 456" })).toEqual({ code: "123456" });
  });
});
