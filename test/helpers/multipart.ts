/** A multipart/form-data body (as a browser or the auth0 SDK sends it), built by the platform's own FormData. */
export async function multipartBody(fields: Record<string, string>, files: Record<string, { content: string | Buffer; filename: string }>): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, file] of Object.entries(files)) form.append(name, new Blob([file.content]), file.filename);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}
