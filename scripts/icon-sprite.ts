/**
 * Writes app/ui/icons.svg from lucide-react, for the names in app/ui/icon-names.ts:
 * `npx tsx scripts/icon-sprite.ts` (docs/decisions/0821-fewer-bytes-icon-sprite.md).
 */
import { writeFileSync } from "node:fs";
import { iconSprite } from "../app/ui/icon-sprite.server";

const file = new URL("../app/ui/icons.svg", import.meta.url);
const sprite = await iconSprite();
writeFileSync(file, sprite);
console.log(`${file.pathname}: ${Buffer.byteLength(sprite)} bytes`);
