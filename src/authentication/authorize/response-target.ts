/**
 * Where and how an authorization response (success or error) goes: the
 * trusted redirect target, the response mode, and the request's `state`.
 */
/**
 * A `response_mode` of the registry (../registries.ts `responseModes`): the
 * built-in `query`, `fragment`, `form_post` and `web_message`, or one added there.
 */
export type ResponseModeName = string;

export interface ResponseTarget {
  redirect_target: string;
  response_mode: ResponseModeName;
  state?: string;
}
