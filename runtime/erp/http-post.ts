/**
 * @module One POST to the ERP over a keep-alive connection, with a hard deadline. Network failures
 * become `ErpUnavailable`, an expired deadline `ErpTimeout`; the body is returned as text for the
 * transport to parse.
 */
import axios, { type AxiosInstance } from 'axios';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { ErpTimeout, ErpUnavailable } from './erp-error';

export interface HttpAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** Largest ERP answer the gateway accepts (a page of 200 wide records is far below). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export function createHttpClient(baseUrl: string): AxiosInstance {
  return axios.create({
    baseURL: baseUrl,
    httpAgent: new HttpAgent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 1000 }),
    httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 1000 }),
    responseType: 'text',
    transformResponse: [(data: unknown) => data],
    validateStatus: () => true,
    maxRedirects: 0,
    maxContentLength: MAX_BODY_BYTES,
    maxBodyLength: MAX_BODY_BYTES,
    decompress: true,
  });
}

export async function postToErp(
  http: AxiosInstance,
  path: string,
  body: string,
  headers: Readonly<Record<string, string>>,
  deadline: AbortSignal,
  method: 'POST' | 'GET' = 'POST',
): Promise<HttpAnswer> {
  if (deadline.aborted) throw new ErpTimeout('the ERP did not answer in time');
  try {
    const response = await http.request<string>({ url: path, method, data: method === 'POST' ? body : undefined, headers, signal: deadline });
    return {
      status: response.status,
      contentType: String(response.headers['content-type'] ?? ''),
      body: typeof response.data === 'string' ? response.data : String(response.data ?? ''),
    };
  } catch (error) {
    if (deadline.aborted) throw new ErpTimeout('the ERP did not answer in time');
    const code = (error as { code?: string }).code ?? 'unknown';
    throw new ErpUnavailable(`ERP unreachable (${code})`, { cause: error });
  }
}
