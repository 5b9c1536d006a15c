/**
 * Where a person types a device code (RFC 8628's verification URI): the platform's own address,
 * `<origin>/device`, served beside the API (the local platform's approval page, lib/local/device-page.ts).
 */
export function verificationUri(headers: Record<string, string | undefined>): string {
  const host = headers.host ?? 'localhost';
  const proto =
    headers['x-forwarded-proto'] ?? (host.startsWith('localhost') || host.startsWith('127.') ? 'http' : 'https');
  return `${proto}://${host}/device`;
}
