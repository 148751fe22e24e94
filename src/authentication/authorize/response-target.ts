/**
 * Where and how an authorization response (success or error) goes: the
 * trusted redirect target, the response mode, and the request's `state`.
 */
export type ResponseModeName = 'query' | 'fragment' | 'form_post' | 'web_message';

export interface ResponseTarget {
  redirect_target: string;
  response_mode: ResponseModeName;
  state?: string;
}
