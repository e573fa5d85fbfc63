/** Text made safe for one cell of a Markdown table: no pipes or line breaks escape the cell. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}
