/**
 * A quote's signature (issue 37, item 9): the full name of the person signing, typed. For themselves it
 * is the name on the client's account; for a company, the name typed for the company's signer. Names
 * compare as people write them: capitals, accents and extra spaces do not matter ("josé  GARCÍA" signs
 * for "José García"), anything else does. Pure, shared by the page and the server.
 */

/** A name as compared: accents off, lower case, one space between words. */
export function nameKey(name: string): string {
  return name.normalize("NFKD").replace(/\p{M}/gu, "").toLocaleLowerCase("en-US").replace(/\s+/g, " ").trim();
}

/** Whether a typed signature is `expected`, capitals, accents and spacing aside. */
export const signsAs = (signature: string, expected: string) =>
  nameKey(expected) !== "" && nameKey(signature) === nameKey(expected);

/** The refusal when the signature is not the account's name. */
export const notAccountName = (accountName: string) =>
  `Type your full name as it is on your account, "${accountName}", to sign. Accepting for a company? Say so below and type the name of the person signing for it.`;

/** The refusal when the signature is not the name typed for the company's signer. */
export const notCompanySigner = (signer: string, company: string) =>
  `Type the name of the person signing for ${company}, "${signer}", as the signature.`;
