/** Text made safe inside HTML markup or an attribute value, escaped as React escapes it. */
export function escapeHtml(text: string): string {
  return text.replace(/["&'<>]/g, (c) => HTML_ESCAPES[c]!)
}

const HTML_ESCAPES: Record<string, string> = {
  '"': '&quot;',
  '&': '&amp;',
  "'": '&#x27;',
  '<': '&lt;',
  '>': '&gt;',
}
