import { TextField } from "~/ui/field";
import { DELETE_CONFIRMATION } from "./account-deletion";

/** "Type DELETE to confirm": the one field both deletion forms (the client's, the owner's) ask for. */
export function DeleteConfirmField({ error }: { error?: string }) {
  return (
    <TextField
      label={`Type ${DELETE_CONFIRMATION} to confirm`}
      name="confirm"
      autoComplete="off"
      spellCheck={false}
      hint={`In capitals: ${DELETE_CONFIRMATION}`}
      required
      error={error}
    />
  );
}
