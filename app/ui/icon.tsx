import type { IconName } from "./icon-names";
import spriteUrl from "./icons.svg?no-inline";

export type { IconName } from "./icon-names";

/**
 * One icon: `<svg class="icon …"><use href="/assets/icons-<hash>.svg#name"></use></svg>`, about 100 bytes,
 * drawn from the sprite file every page shares (docs/decisions/0821-fewer-bytes-icon-sprite.md). The
 * sprite is one cached, immutable request; the page and the JavaScript carry only the icon's name.
 * Decorative by default (hidden from assistive technology, as the text beside it says it); give `label`
 * when the icon alone carries the meaning.
 */
export function Icon({ name, className, label }: { name: IconName; className?: string; label?: string }) {
  const use = <use href={`${spriteUrl}#${name}`} />;
  const classes = className ? `icon ${className}` : "icon";
  return label ? (
    <svg className={classes} role="img" aria-label={label}>
      {use}
    </svg>
  ) : (
    <svg className={classes} aria-hidden="true">
      {use}
    </svg>
  );
}
