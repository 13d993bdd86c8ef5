/** What the pages know about the signed-in person (the accounts feature fills it from the session). */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: "client" | "admin";
}
