import { SANDBOX_TEST_CARD_NAMES, SANDBOX_TEST_CARDS } from "./sandbox-cards";

/** The sandbox page's choice of a test card to save (ADR 0531): the first, succeeding one, by default. */
export function SandboxTestCardChoice({ setup }: { setup: boolean }) {
  return (
    <fieldset className="mb-6 space-y-2 text-sm">
      <legend className="mb-2 font-medium">
        {setup ? "The test card to save" : "The test card to pay with (it is saved for renewals)"}
      </legend>
      {SANDBOX_TEST_CARD_NAMES.map((name, i) => (
        <label key={name} className="flex items-center gap-2">
          <input type="radio" name="card" value={name} defaultChecked={i === 0} />
          {SANDBOX_TEST_CARDS[name].label}
        </label>
      ))}
    </fieldset>
  );
}
