/** The client name recorded on a message: the User-Agent's first product token. */
export function clientName(userAgent: string): string {
  const token = userAgent.trim().split(/[/\s]/, 1)[0] ?? '';
  return token === '' ? 'API' : token.slice(0, 30);
}
