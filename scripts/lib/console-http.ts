/**
 * A small HTTP client of a running console over the contract's route tables, for scripts that
 * drive a gateway from outside (simulator, demo, bench): the same calls a provisioning script
 * makes, typed by the contract.
 */
import type { RouteDef } from '../../server/contract/route.ts';
import { authRoutes, type TokenPair } from '../../server/contract/auth.ts';
import type { BodyOf, ParamsOf, QueryOf, ResponseOf } from '../../web/lib/api-client.ts';

export interface HttpCallOptions<R extends RouteDef> {
  params?: ParamsOf<R> extends undefined ? Record<string, string | number> : ParamsOf<R>;
  query?: QueryOf<R> extends undefined ? Record<string, unknown> : Partial<QueryOf<R>>;
  body?: BodyOf<R>;
}

/** A failed call: the status and the server's error body. */
export class ConsoleHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what}: ${status} ${typeof body === 'string' ? body : JSON.stringify(body)}`);
  }
}

export class ConsoleHttp {
  constructor(
    readonly baseUrl: string,
    private token: string | null = null,
  ) {}

  /** Signs in with a username and password and keeps the access token for later calls. */
  static async signIn(baseUrl: string, username: string, password: string): Promise<ConsoleHttp> {
    const client = new ConsoleHttp(baseUrl.replace(/\/+$/, ''));
    const pair: TokenPair = await client.call(authRoutes.login, { body: { username, password } });
    client.token = pair.token;
    return client;
  }

  get accessToken(): string | null {
    return this.token;
  }

  async call<R extends RouteDef>(route: R, opts: HttpCallOptions<R> = {}): Promise<ResponseOf<R>> {
    const path = route.url.replace(/:(\w+)/g, (_, name: string) => {
      const value = (opts.params as Record<string, unknown> | undefined)?.[name];
      if (value === undefined) throw new Error(`missing path parameter ${name} for ${route.url}`);
      return encodeURIComponent(String(value));
    });
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries((opts.query ?? {}) as Record<string, unknown>)) {
      if (v !== undefined && v !== null && v !== '') search.append(k, String(v));
    }
    const url = `${this.baseUrl}${path}${search.size ? `?${search}` : ''}`;
    const headers: Record<string, string> = { 'accept-language': 'en-US' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url, {
      method: route.method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text for the error
    }
    if (!res.ok) throw new ConsoleHttpError(res.status, body, `${route.method} ${path}`);
    return body as ResponseOf<R>;
  }
}
