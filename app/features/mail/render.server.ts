import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";

/** Renders an email component to a complete HTML document (React escapes every value it prints). */
export function renderEmailHtml(element: ReactElement): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(element)}`;
}
