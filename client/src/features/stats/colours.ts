/** A colour of the page's palette (styles.css), read when a chart is drawn: the club's theme follows. */
export function cssColour(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}
